import Foundation
import XCTest

@testable import IPData

/// The opt-in cache: LRU eviction, time to live, and the key it files lookups under.
final class LookupCacheTests: MockedClientTestCase {
    /// A clock the test moves by hand.
    private final class ManualClock: Sendable {
        private let time = Locked(Date(timeIntervalSince1970: 1_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(by seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    private func response(_ ip: String) throws -> IPResponse {
        try JSONDecoder().decode(IPResponse.self, from: Fixture.json(["ip": ip]))
    }

    func testDefaults() {
        let cache = LookupCache()
        XCTAssertEqual(cache.maximumEntries, 4_096)
        XCTAssertEqual(cache.timeToLive, 86_400)
    }

    func testTheLeastRecentlyUsedEntryIsEvictedFirst() throws {
        let cache = LookupCache(maximumEntries: 3, timeToLive: 60)
        for ip in ["1.1.1.1", "2.2.2.2", "3.3.3.3"] { cache.insert(try response(ip), forKey: ip) }
        XCTAssertEqual(cache.value(forKey: "1.1.1.1")?.ip, "1.1.1.1", "reading 1.1.1.1 makes 2.2.2.2 the oldest")
        cache.insert(try response("4.4.4.4"), forKey: "4.4.4.4")
        XCTAssertEqual(cache.count, 3)
        XCTAssertNil(cache.value(forKey: "2.2.2.2"))
        XCTAssertEqual(cache.value(forKey: "1.1.1.1")?.ip, "1.1.1.1")
        XCTAssertEqual(cache.value(forKey: "3.3.3.3")?.ip, "3.3.3.3")
        XCTAssertEqual(cache.value(forKey: "4.4.4.4")?.ip, "4.4.4.4")
    }

    func testEvictionKeepsWorkingOverManyInsertions() throws {
        let cache = LookupCache(maximumEntries: 100, timeToLive: 60)
        for index in 0..<10_000 { cache.insert(try response("x\(index)"), forKey: "k\(index)") }
        XCTAssertEqual(cache.count, 100)
        XCTAssertNil(cache.value(forKey: "k9899"))
        XCTAssertEqual(cache.value(forKey: "k9900")?.ip, "x9900")
        XCTAssertEqual(cache.value(forKey: "k9999")?.ip, "x9999")
    }

    func testAnEntryExpiresAfterItsTimeToLive() throws {
        let clock = ManualClock()
        let cache = LookupCache(maximumEntries: 10, timeToLive: 900, now: { clock.now })
        cache.insert(try response("8.8.8.8"), forKey: "8.8.8.8")
        clock.advance(by: 899)
        XCTAssertEqual(cache.value(forKey: "8.8.8.8")?.ip, "8.8.8.8")
        clock.advance(by: 1)
        XCTAssertNil(cache.value(forKey: "8.8.8.8"))
        XCTAssertEqual(cache.count, 0, "an expired entry is dropped when it is read")
    }

    func testAnEntryStoredWithATimeToLiveOfItsOwnExpiresAfterThat() throws {
        let clock = ManualClock()
        let cache = LookupCache(maximumEntries: 10, timeToLive: 900, now: { clock.now })
        let key = try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: nil))
        cache.store(LookupCacheEntry(response: try response("8.8.8.8"), json: nil), for: key, timeToLive: 30)
        clock.advance(by: 29)
        XCTAssertEqual(cache.entry(for: key)?.response.ip, "8.8.8.8")
        clock.advance(by: 1)
        XCTAssertNil(cache.entry(for: key), "30 seconds, not the cache's 900")
    }

    /// With `threatTimeToLive`, an answer with threat data (all fields, or `threat` among them)
    /// expires after it, and the others after `timeToLive`; through a client too.
    func testThreatDataLivesItsOwnTime() throws {
        let clock = ManualClock()
        let cache = LookupCache(maximumEntries: 10, timeToLive: 86_400, threatTimeToLive: 900, now: { clock.now })
        XCTAssertNil(LookupCache().threatTimeToLive)
        XCTAssertEqual(LookupCache(threatTimeToLive: 900).threatTimeToLive, 900)
        let all = try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: nil))
        let threat = try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: ["threat", "ip"]))
        let country = try XCTUnwrap(LookupCacheKey(address: "8.8.8.8", fields: ["country_name"]))
        for key in [all, threat, country] {
            cache.store(LookupCacheEntry(response: try response("8.8.8.8"), json: nil), for: key)
        }
        cache.insert(try response("1.1.1.1"), forKey: "1.1.1.1#")
        cache.insert(try response("1.1.1.1"), forKey: "1.1.1.1#city")
        clock.advance(by: 899)
        XCTAssertNotNil(cache.entry(for: all))
        clock.advance(by: 1)
        XCTAssertNil(cache.entry(for: all), "all fields hold threat data: 900 s")
        XCTAssertNil(cache.entry(for: threat), "threat among the fields: 900 s")
        XCTAssertNil(cache.value(forKey: "1.1.1.1#"), "the client's path: 900 s")
        XCTAssertNotNil(cache.entry(for: country), "no threat data: 24 hours")
        XCTAssertNotNil(cache.value(forKey: "1.1.1.1#city"))
        clock.advance(by: 86_400 - 900)
        XCTAssertNil(cache.entry(for: country))
    }

    func testTheKeyIsTheCanonicalAddressAndTheSetOfFields() {
        XCTAssertEqual(
            LookupCache.key(address: "2001:DB8::1", fields: nil),
            LookupCache.key(address: "2001:db8:0:0:0:0:0:1", fields: nil))
        XCTAssertEqual(
            LookupCache.key(address: "8.8.8.8", fields: ["ip", "city"]),
            LookupCache.key(address: "8.8.8.8", fields: ["city", "ip", "city"]))
        XCTAssertEqual(
            LookupCache.key(address: "8.8.8.8", fields: []), LookupCache.key(address: "8.8.8.8", fields: nil))
        XCTAssertNotEqual(
            LookupCache.key(address: "8.8.8.8", fields: ["ip"]), LookupCache.key(address: "8.8.8.8", fields: nil))
        XCTAssertNil(LookupCache.key(address: "bleh", fields: nil))
    }

    func testACachedLookupSendsNoRequest() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.ipv6Lookup))
        let client = IPDataClient(
            apiKey: Self.apiKey,
            configuration: .init(connection: .session(MockURLProtocol.makeSession()), cache: LookupCache()))
        let first = try await client.lookup("2001:4860:4860::8844")
        let second = try await client.lookup("2001:4860:4860:0:0:0:0:8844")
        XCTAssertEqual(first, second)
        XCTAssertEqual(sent.count, 1)
        _ = try await client.lookup("2001:4860:4860::8844", fields: ["ip"])
        XCTAssertEqual(sent.count, 2, "other fields are another entry")
    }

    func testAnExpiredEntryIsFetchedAgain() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let clock = ManualClock()
        let cache = LookupCache(maximumEntries: 10, timeToLive: 60, now: { clock.now })
        let client = IPDataClient(
            apiKey: Self.apiKey, configuration: .init(connection: .session(MockURLProtocol.makeSession()), cache: cache)
        )
        _ = try await client.lookup("8.8.8.8")
        clock.advance(by: 61)
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(sent.count, 2)
    }

    func testBulkLookupReadsAndFillsTheCache() async throws {
        let cache = LookupCache()
        let client = IPDataClient(
            apiKey: Self.apiKey, configuration: .init(connection: .session(MockURLProtocol.makeSession()), cache: cache)
        )
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        _ = try await client.lookup("8.8.8.8")
        MockURLProtocol.respond(
            body: try Fixture.json([["ip": "1.1.1.1"], ["message": "10.0.0.1 is a private IP address"]]))
        let results = try await client.bulkLookup(["8.8.8.8", "1.1.1.1", "10.0.0.1"])
        XCTAssertEqual(results.map(\.ip), ["8.8.8.8", "1.1.1.1", "10.0.0.1"])
        let body = try XCTUnwrap(sent.last?.body)
        XCTAssertEqual(
            try JSONSerialization.jsonObject(with: body) as? [String], ["1.1.1.1", "10.0.0.1"],
            "8.8.8.8 came from the cache")
        _ = try await client.bulkLookup(["1.1.1.1", "8.8.8.8"])
        XCTAssertEqual(sent.count, 2, "both now cached: no request")
        XCTAssertEqual(cache.count, 2, "a rejected address is not cached")
    }

    func testAFailedLookupIsNotCached() async throws {
        MockURLProtocol.respond(status: 403, body: Data(#"{"message": "quota"}"#.utf8))
        let client = IPDataClient(
            apiKey: Self.apiKey,
            configuration: .init(connection: .session(MockURLProtocol.makeSession()), cache: LookupCache()))
        _ = try? await client.lookup("8.8.8.8")
        _ = try? await client.lookup("8.8.8.8")
        XCTAssertEqual(sent.count, 2)
    }
}
