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
            Progress.barText(records: 3_300, total: 10_000, requests: 33, elapsed: 1.25, width: 80),
            "[#########---------------------]  33%  3300/10000 records  33 requests  1.2 s")
        XCTAssertEqual(
            Progress.barText(records: 10, total: 10, requests: 1, elapsed: 0, width: 80),
            "[##############################] 100%  10/10 records  1 request  0.0 s")
    }

    func testWithoutATotalTheBarCounts() {
        XCTAssertEqual(
            Progress.barText(records: 1, total: nil, requests: 1, elapsed: 0.5, width: 80),
            "1 record  1 request  0.5 s")
    }

    func testTheBarIsNarrowerThanTheTerminal() {
        // 10000 single lookups (a free plan) made the bar 82 characters wide.
        XCTAssertEqual(
            Progress.barText(records: 10_000, total: 10_000, requests: 10_000, elapsed: 12.34, width: 80),
            "[###########################] 100%  10000/10000 records  10000 requests  12.3 s")
        XCTAssertEqual(
            Progress.barText(records: 5_000, total: 10_000, requests: 50, elapsed: 1, width: 60),
            "[######------]  50%  5000/10000 records  50 requests  1.0 s")
        XCTAssertEqual(
            Progress.barText(records: 5_000, total: 10_000, requests: 5_000, elapsed: 1, width: 50),
            " 50%  5000/10000 records  5000 requests  1.0 s")
        XCTAssertEqual(
            Progress.barText(records: 5_000, total: 10_000, requests: 5_000, elapsed: 1, width: 30),
            " 50%  5000/10000 records")
        XCTAssertEqual(
            Progress.barText(records: 5_000, total: 10_000, requests: 5, elapsed: 1, width: 12), " 50%  5000…")
        XCTAssertEqual(Progress.barText(records: 5, total: nil, requests: 5, elapsed: 1, width: 12), "5 records")
        for width in [1, 10, 20, 40, 60, 80, 120] {
            for (records, total, requests) in [(1, 500, 5), (10_000, 10_000, 10_000), (123_456, nil, 1_235)] {
                let text = Progress.barText(
                    records: records, total: total, requests: requests, elapsed: 123.4, width: width)
                XCTAssertLessThan(TerminalText.width(text), max(width, 1), "\(width): \(text)")
            }
        }
    }

    func testTheSummaryNamesRecordsFailuresRequestsAndTime() {
        XCTAssertEqual(
            Progress.summaryText(records: 10_000, failures: 1, requests: 100, elapsed: 2.44),
            "10000 records, 1 failed, 100 requests sent, 2.4 s elapsed")
        XCTAssertEqual(
            Progress.summaryText(records: 1, failures: 0, requests: 1, elapsed: 0.04),
            "1 record, 0 failed, 1 request sent, 0.0 s elapsed")
    }

    func testEventsAnnounceTheSwitchOnceAtOnce() {
        let announced = Locked<[String]>([])
        let events = StreamEvents(announce: { text in announced.withLock { $0.append(text) } })
        XCTAssertFalse(events.takeSwitchToSingleLookups())
        events.record(.requestSent(addresses: 100))
        events.record(.switchedToSingleLookups)
        // Announced when it happens, before the first single lookup, not when a record is written.
        XCTAssertEqual(announced.withLock { $0 }, [StreamEvents.switchNotice])
        events.record(.requestSent(addresses: 1))
        events.record(.switchedToSingleLookups)
        XCTAssertEqual(announced.withLock { $0 }.count, 1, "once")
        XCTAssertFalse(events.takeSwitchToSingleLookups(), "already said: the progress does not say it again")
    }

    private func request(status: Int?, failure: URLError.Code? = nil, retryAfter: String? = nil) -> SentRequest {
        var request = SentRequest(
            method: "POST", url: URL(string: "https://api.ipdata.co/bulk?api-key=REDACTED")!, statusCode: status,
            failure: failure.map { .networkError(URLError($0)) }, duration: 0.01)
        request.retryAfter = retryAfter
        request.mayHaveReachedTheServer = failure != .cannotConnectToHost
        return request
    }

    func testTheTallyCountsEveryAttemptThatMayHaveReachedTheServer() {
        let tally = RequestTally()
        for request in [
            request(status: 502), request(status: 200), request(status: nil, failure: .networkConnectionLost),
            request(status: nil, failure: .cannotConnectToHost),
        ] {
            tally.record(request)
        }
        XCTAssertEqual(tally.sent, 3, "a refused connection sent nothing")
        XCTAssertNil(tally.rateLimitText, "no 429: nothing to say")
    }

    func testTheTallySaysHowManyAnswersWere429AndTheLastRetryAfter() {
        let tally = RequestTally()
        tally.record(request(status: 429, retryAfter: "30"))
        XCTAssertEqual(
            tally.rateLimitText,
            "the API limited the rate: 1 answer was 429 Too Many Requests (the last said Retry-After: 30)")
        tally.record(request(status: 429, retryAfter: "2"))
        tally.record(request(status: 429))
        XCTAssertEqual(tally.rateLimited, 3)
        XCTAssertEqual(
            tally.rateLimitText,
            "the API limited the rate: 3 answers were 429 Too Many Requests (the last said Retry-After: 2)")
        let plain = RequestTally()
        plain.record(request(status: 429))
        XCTAssertEqual(plain.rateLimitText, "the API limited the rate: 1 answer was 429 Too Many Requests")
    }

    func testRequestsFromManyThreadsAreAllCounted() async {
        let tally = RequestTally()
        let sent = request(status: 200)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 { group.addTask { tally.record(sent) } }
        }
        XCTAssertEqual(tally.sent, 1_000)
    }
}
#endif
