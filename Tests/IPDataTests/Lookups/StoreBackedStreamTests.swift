import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A lookup stream over a client with a `cacheStore` that keeps the API's bytes (as the `ipdata`
/// command's disk cache does): addresses the store holds are answered in their place without a
/// request, the others go in full chunks, and each answer the API sends is stored.
final class StoreBackedStreamTests: MockedClientTestCase {
    /// A store in memory that keeps bytes and hands them back alone (`LookupCacheEntry(json:)`),
    /// counting the keys read.
    private final class BytesStore: LookupCacheStore {
        let answers: Locked<[String: Data]>
        let reads = Locked(0)

        init(_ addresses: [String]) {
            answers = Locked(Dictionary(uniqueKeysWithValues: addresses.map { ($0, BytesStore.json($0, "KEPT")) }))
        }

        static func json(_ ip: String, _ country: String) -> Data {
            Data(#"{"ip":"\#(ip)","country_code":"\#(country)"}"#.utf8)
        }

        func entry(for key: LookupCacheKey) async -> LookupCacheEntry? {
            reads.withLock { $0 += 1 }
            return answers.withLock { $0[key.address] }.map { LookupCacheEntry(json: $0) }
        }

        func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) async {
            guard let json = entry.json else { return }
            answers.withLock { $0[key.address] = json }
        }
    }

    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { "8.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
    }

    private func client(_ store: BytesStore) -> IPDataClient {
        var configuration = IPDataClient.Configuration(connection: .session(MockURLProtocol.makeSession()))
        configuration.cacheStore = store
        return IPDataClient(apiKey: Self.apiKey, configuration: configuration)
    }

    private func options(concurrency: Int = 4, keepsJSON: Bool = true) -> LookupStreamOptions {
        var options = LookupStreamOptions(concurrency: concurrency)
        options.keepsJSON = keepsJSON
        return options
    }

    private func sentAddresses() throws -> [String] {
        try sent.filter { $0.url.path == "/bulk" }.flatMap {
            try XCTUnwrap(JSONSerialization.jsonObject(with: $0.body ?? Data()) as? [String])
        }
    }

    func testStoredAddressesAreAnsweredInTheirPlaceAndTheOthersGoInFullChunks() async throws {
        answerLikeTheAPI()
        let ips = addresses(1_000)
        let store = BytesStore(ips.enumerated().filter { $0.offset % 3 == 0 }.map(\.element))
        let client = client(store)
        let results = try await client.lookupAll(ips, options: options())
        XCTAssertEqual(results.map(\.ip), ips)
        for (index, result) in results.enumerated() {
            let country = index % 3 == 0 ? "KEPT" : "US"
            let text = String(decoding: result.json ?? Data(), as: UTF8.self)
            XCTAssertTrue(text.contains(#""\#(country)""#) && text.contains(ips[index]), "\(index): \(text)")
        }
        XCTAssertEqual(
            try sentAddresses().sorted(), ips.enumerated().filter { $0.offset % 3 != 0 }.map(\.element).sorted())
        XCTAssertEqual(sent.count, 7, "666 addresses in full chunks of 100")
        XCTAssertEqual(results.map(\.isFromCache), ips.indices.map { $0 % 3 == 0 }, "the store's answers say so")
        // Each answer the API sent is stored: a second run sends nothing.
        let again = try await client.lookupAll(ips, options: options())
        XCTAssertEqual(again.map(\.ip), ips)
        XCTAssertEqual(sent.count, 7)
        XCTAssertTrue(again.allSatisfy(\.isFromCache))
    }

    func testAnInputOfStoredAnswersAloneIsReadOnlyAsFarAsTheWindowAllows() async throws {
        answerLikeTheAPI()
        let ips = addresses(20_000)
        let store = BytesStore(ips)
        var iterator = client(store).lookupStream(ips, options: options(concurrency: 2)).makeAsyncIterator()
        _ = try await iterator.next()
        XCTAssertLessThanOrEqual(store.reads.withLock { $0 }, 3 * LookupPipeline.mostAddressesRead)
        var count = 1
        while try await iterator.next() != nil { count += 1 }
        XCTAssertEqual(count, 20_000)
        XCTAssertTrue(sent.isEmpty)
    }

    func testAfterTheSwitchToSingleLookupsStoredAnswersStayInTheirPlace() async throws {
        answerLikeTheAPI(bulkStatus: 403, bulkBody: try Fixture.data("errors/403-bulk-requires-paid.json"))
        let ips = addresses(300)
        let store = BytesStore(ips.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        let results = try await client(store).lookupAll(ips, options: options(concurrency: 2))
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(results.filter { $0.json == BytesStore.json($0.ip, "KEPT") }.count, 150)
        XCTAssertEqual(sent.filter { $0.method == "GET" }.count, 150, "only the addresses not stored")
        XCTAssertEqual(store.answers.withLock { $0.count }, 300, "single lookups' answers are stored too")
    }

    func testADecodingStreamDecodesStoredBytesAndStoresNewAnswers() async throws {
        answerLikeTheAPI()
        let store = BytesStore(["8.8.8.8"])
        let results = try await client(store).lookupAll(
            ["8.8.8.8", "1.1.1.1", "10.0.0.1"], options: options(keepsJSON: false))
        XCTAssertEqual(results.map { $0.response?.countryCode }, ["KEPT", "US", nil])
        XCTAssertTrue(results.allSatisfy { $0.json == nil })
        XCTAssertNotNil(store.answers.withLock { $0["1.1.1.1"] })
        XCTAssertNil(store.answers.withLock { $0["10.0.0.1"] }, "a rejected address is not stored")
        XCTAssertEqual(try sentAddresses(), ["1.1.1.1", "10.0.0.1"])
    }

    /// An entry of bytes alone is decoded only when its model is read; bytes that are no answer
    /// are a miss for the client.
    func testAnEntryOfBytesAloneDecodesWhenItsModelIsRead() async throws {
        let entry = LookupCacheEntry(json: BytesStore.json("8.8.8.8", "US"))
        XCTAssertEqual(entry.response.countryCode, "US")
        XCTAssertNotNil(LookupCacheEntry(json: Data("[1]".utf8)).response.message)
        answerLikeTheAPI()
        let store = BytesStore([])
        store.answers.withLock { $0["8.8.8.8"] = Data("not json".utf8) }
        let response = try await client(store).lookup("8.8.8.8")
        XCTAssertEqual(response.countryCode, "US", "sent to the API")
        XCTAssertEqual(sent.count, 1)
    }
}
