// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import IPData
import XCTest

@testable import ipdata_cli

/// The progress bar, the summary line, and the events a stream reports.
final class ProgressTests: XCTestCase {
    func testTheBarShowsTheShareDone() {
        XCTAssertEqual(
            Progress.barText(records: 3_300, total: 10_000, requests: 33, elapsed: 1.25),
            "[#########---------------------]  33%  3300/10000 records  33 requests  1.2 s")
        XCTAssertEqual(
            Progress.barText(records: 10, total: 10, requests: 1, elapsed: 0),
            "[##############################] 100%  10/10 records  1 request  0.0 s")
    }

    func testWithoutATotalTheBarCounts() {
        XCTAssertEqual(
            Progress.barText(records: 1, total: nil, requests: 1, elapsed: 0.5), "1 record  1 request  0.5 s")
    }

    func testTheSummaryNamesRecordsFailuresRequestsAndTime() {
        XCTAssertEqual(
            Progress.summaryText(records: 10_000, failures: 1, requests: 100, elapsed: 2.44),
            "10000 records, 1 failed, 100 requests sent, 2.4 s elapsed")
        XCTAssertEqual(
            Progress.summaryText(records: 1, failures: 0, requests: 1, elapsed: 0.04),
            "1 record, 0 failed, 1 request sent, 0.0 s elapsed")
    }

    func testEventsCountRequestsAndReportTheSwitchOnce() {
        let events = StreamEvents()
        XCTAssertFalse(events.takeSwitchToSingleLookups())
        events.record(.requestSent(addresses: 100))
        events.record(.switchedToSingleLookups)
        events.record(.requestSent(addresses: 1))
        XCTAssertEqual(events.requestsSent, 2)
        XCTAssertTrue(events.takeSwitchToSingleLookups())
        XCTAssertFalse(events.takeSwitchToSingleLookups())
    }

    func testEventsFromManyThreadsAreAllCounted() async {
        let events = StreamEvents()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 { group.addTask { events.record(.requestSent(addresses: 1)) } }
        }
        XCTAssertEqual(events.requestsSent, 1_000)
    }
}
#endif
