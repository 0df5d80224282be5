import DiskCache
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// How the commands use the disk cache: its hits counted, dry runs that ask it, and the summary
/// that says how many answers came from it.
final class CacheUseTests: XCTestCase {
    private func makeStore() throws -> SQLiteLookupStore {
        let directory = try makeTemporaryDirectory().appendingPathComponent("ipdata").path
        return SQLiteLookupStore(
            database: try CacheDatabase.open(CacheConfiguration(directory: directory)), scope: .sandbox)
    }

    private func key(_ address: String, _ fields: [String]? = nil) -> LookupCacheKey {
        LookupCacheKey(address: address, fields: fields)!
    }

    func testHitsAreCountedAndAnotherFieldSetIsAnotherEntry() throws {
        let store = try makeStore()
        let json = Data(#"{"ip":"8.8.8.8"}"#.utf8)
        store.store(LookupCacheEntry(json: json), for: key("8.8.8.8", ["ip"]))
        XCTAssertEqual(store.entry(for: key("8.8.8.8", ["ip"]))?.json, json)
        XCTAssertNil(store.entry(for: key("1.1.1.1", ["ip"])))
        XCTAssertNil(store.entry(for: key("8.8.8.8")), "another field set")
        XCTAssertEqual(store.hits, 1)
        XCTAssertEqual(store.database.info().entries, 1)
    }

    func testADryRunCountsDistinctAddressesAndTheCachesAnswers() async throws {
        let store = try makeStore()
        store.store(LookupCacheEntry(json: Data(#"{"ip":"8.8.8.8"}"#.utf8)), for: key("8.8.8.8"))
        let input = ["8.8.8.8", "1.1.1.1", "2001:DB8::1", "2001:db8::1", "nope", "nope", "8.8.8.8"]
        func addresses() -> AsyncStream<String> {
            AsyncStream { continuation in
                for address in input { continuation.yield(address) }
                continuation.finish()
            }
        }
        let estimate = try await DryRun.count(addresses(), cache: store, fields: nil)
        // 2001:db8::1 is a documentation address: answered locally, not sent.
        XCTAssertEqual(estimate, DryRun(addresses: 7, distinct: 4, notAddresses: 1, answeredLocally: 1, cached: 1))
        XCTAssertEqual(estimate.toSend, 1)
        XCTAssertEqual(estimate.requests(singleLookups: false), 1)
        XCTAssertEqual(estimate.requests(singleLookups: true), 1)
        XCTAssertEqual(
            estimate.text(singleLookups: false),
            "dry run: 7 addresses read, 4 distinct; of the 4 distinct addresses: 1 in the cache, 1 answered locally "
                + "(private or reserved), 1 invalid, 1 to send in 1 bulk request; nothing was sent")
        let sentAsIs = try await DryRun.count(addresses(), cache: store, fields: nil, answersNonPublicLocally: false)
        XCTAssertEqual(sentAsIs.toSend, 2, "without local answers, the documentation address is sent")
        XCTAssertEqual(DryRun(addresses: 250, distinct: 250).requests(singleLookups: false), 3)
    }

    func testTheSummarySaysHowManyAnswersCameFromTheCache() {
        XCTAssertEqual(
            Progress.summaryText(records: 10, failures: 0, requests: 0, cached: 10, elapsed: 0.5),
            "10 records, 0 failed, 0 requests sent, 10 answers from the cache, 0.5 s elapsed")
        XCTAssertEqual(
            Progress.summaryText(records: 1, failures: 0, requests: 1, elapsed: 0.5),
            "1 record, 0 failed, 1 request sent, 0.5 s elapsed")
        XCTAssertEqual(CacheReport.notice(1), "1 answer from the cache (nothing paid for them)")
    }
}
