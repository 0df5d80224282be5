import Foundation
import XCTest

@testable import IPData

/// `LookupCacheStore`: a store behind the cache, as a shared one is, and `LookupCache` as one.
final class LookupCacheStoreTests: MockedClientTestCase {
    /// A store in a dictionary that counts its calls, as a network store would see them.
    private final class RecordingStore: LookupCacheStore {
        struct State {
            var entries: [LookupCacheKey: LookupCacheEntry] = [:]
            var reads: [[LookupCacheKey]] = []
            var writes: [[LookupCacheKey]] = []
        }
        let state = Locked(State())

        func entry(for key: LookupCacheKey) async -> LookupCacheEntry? {
            await entries(for: [key])[0]
        }

        func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) async {
            await store([entry], for: [key])
        }

        func entries(for keys: [LookupCacheKey]) async -> [LookupCacheEntry?] {
            state.withLock { state in
                state.reads.append(keys)
                return keys.map { state.entries[$0] }
            }
        }

        func store(_ entries: [LookupCacheEntry], for keys: [LookupCacheKey]) async {
            state.withLock { state in
                state.writes.append(keys)
                for (entry, key) in zip(entries, keys) { state.entries[key] = entry }
            }
        }
    }

    private func client(cache: LookupCache? = nil, store: (any LookupCacheStore)?) -> IPDataClient {
        var configuration = IPDataClient.Configuration(
            connection: .session(MockURLProtocol.makeSession()), cache: cache)
        configuration.cacheStore = store
        return IPDataClient(apiKey: Self.apiKey, configuration: configuration)
    }

    func testTheKeyNamesTheCanonicalAddressTheFieldsAndWhetherThreatDataIsIn() throws {
        let key = try XCTUnwrap(LookupCacheKey(address: "2001:DB8::1", fields: ["threat", "ip", "ip"]))
        XCTAssertEqual(key.address, "2001:db8::1")
        XCTAssertEqual(key.fields, ["ip", "threat"])
        XCTAssertEqual(key.description, "2001:db8::1#ip,threat")
        XCTAssertTrue(key.includesThreat)
        XCTAssertTrue(try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: nil)).includesThreat, "all fields")
        XCTAssertFalse(try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: ["city"])).includesThreat)
        XCTAssertEqual(LookupCacheKey(address: "8.8.8.8", fields: [])?.description, "8.8.8.8#")
        XCTAssertNil(LookupCacheKey(address: "8.8.8.300", fields: nil))
    }

    func testAStoreIsFilledWithTheAPIsBytesAndAnswersAnotherClient() async throws {
        let body = try Fixture.data(Fixture.googleLookup)
        MockURLProtocol.respond(body: body)
        let store = RecordingStore()
        let first = try await client(store: store).lookupAnswer("8.8.8.8")
        XCTAssertEqual(sent.count, 1)
        let key = try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: nil))
        XCTAssertEqual(store.state.withLock { $0.entries[key]?.json }, body, "the store keeps the API's JSON")

        let second = try await client(store: store).lookupAnswer("8.8.8.8", fields: [])
        XCTAssertEqual(sent.count, 1, "another client, one store: no request")
        XCTAssertEqual(second.response, first.response)
        XCTAssertEqual(second.json, body, "the store's bytes come back with the answer")
    }

    func testALookupAnswerCarriesTheAPIsBytesButNotFromTheCacheInFront() async throws {
        let body = try Fixture.data(Fixture.googleLookup)
        MockURLProtocol.respond(body: body)
        let client = client(cache: LookupCache(), store: nil)
        let answer = try await client.lookupAnswer("8.8.8.8")
        XCTAssertEqual(answer.json, body, "the body as the API sent it")
        XCTAssertEqual(answer.response, try JSONDecoder().decode(IPResponse.self, from: body))
        let cached = try await client.lookupAnswer("8.8.8.8")
        XCTAssertNil(cached.json, "the in-memory cache keeps models only")
        XCTAssertEqual(cached.response, answer.response)
        let own = try await client.lookupAnswer()
        XCTAssertEqual(own.json, body, "the caller's own address too")
    }

    func testTheCacheInFrontAnswersWithoutReadingTheStore() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let store = RecordingStore()
        let client = client(cache: LookupCache(), store: store)
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(sent.count, 1)
        XCTAssertEqual(store.state.withLock { $0.reads.count }, 1, "the second lookup stopped at the cache")

        // A store hit fills the cache in front.
        let cache = LookupCache()
        _ = try await self.client(cache: cache, store: store).lookup("8.8.8.8")
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(sent.count, 1)
    }

    func testALookupCacheGivenAsTheStoreIsTheCache() {
        let cache = LookupCache()
        let client = client(store: cache)
        XCTAssertTrue(client.cache === cache)
        XCTAssertNil(client.sharedStore, "read in place, never awaited")
        XCTAssertTrue(client.cacheStore as? LookupCache === cache)
        XCTAssertNil(self.client(store: nil).cacheStore)
    }

    func testALookupCacheIsAStore() async throws {
        let cache = LookupCache()
        let key = try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: nil))
        let response = try Fixture.decode(IPResponse.self, Fixture.googleLookup)
        await (cache as any LookupCacheStore).store(LookupCacheEntry(response: response, json: nil), for: key)
        let other = try XCTUnwrap(LookupCacheKey(address: "1.1.1.1", fields: nil))
        let found = await (cache as any LookupCacheStore).entries(for: [key, other])
        XCTAssertEqual(found.map { $0?.response.ip }, ["8.8.8.8", nil])
        XCTAssertEqual(cache.value(forKey: "8.8.8.8#"), response)
    }

    func testBulkLookupReadsTheStoreOnceAndStoresEachElementsBytes() async throws {
        let store = RecordingStore()
        let client = client(store: store)
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        _ = try await client.lookup("8.8.8.8")
        MockURLProtocol.respond(
            body: Data(#"[{"ip": "1.1.1.1", "city": "Sydney"}, {"message": "10.0.0.1 is a private IP address"}]"#.utf8))
        let results = try await client.bulkLookup(["8.8.8.8", "1.1.1.1", "10.0.0.1", "nonsense"])
        XCTAssertEqual(results.map(\.ip), ["8.8.8.8", "1.1.1.1", "10.0.0.1", "nonsense"])
        let body = try XCTUnwrap(sent.last?.body)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: body) as? [String], ["1.1.1.1", "10.0.0.1"])

        let (reads, writes, kept) = store.state.withLock { ($0.reads, $0.writes, $0.entries) }
        XCTAssertEqual(reads.last?.map(\.description), ["8.8.8.8#", "1.1.1.1#", "10.0.0.1#"], "one read for the bulk")
        XCTAssertEqual(writes.last?.map(\.description), ["1.1.1.1#"], "a rejected address is not stored")
        let key = try XCTUnwrap(LookupCacheKey(address: "1.1.1.1", fields: nil))
        XCTAssertEqual(kept[key]?.json, Data(#"{"ip": "1.1.1.1", "city": "Sydney"}"#.utf8))

        _ = try await client.bulkLookup(["1.1.1.1", "8.8.8.8"])
        XCTAssertEqual(sent.count, 2, "both in the store: no request")
    }

    func testConcurrentLookupsShareOneReadOfTheStoreAndOneRequest() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let store = RecordingStore()
        let client = client(store: store)
        try await withThrowingTaskGroup(of: IPResponse.self) { group in
            for _ in 0..<20 { group.addTask { try await client.lookup("8.8.8.8") } }
            for try await response in group { XCTAssertEqual(response.ip, "8.8.8.8") }
        }
        let reads = store.state.withLock { $0.reads.count }
        XCTAssertLessThanOrEqual(sent.count, reads, "a request only after a read missed")
        XCTAssertEqual(sent.count, 1, "no lookup starts after the answer was stored without finding it")
    }
}
