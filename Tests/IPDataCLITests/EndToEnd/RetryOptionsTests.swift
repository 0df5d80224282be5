// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata` retries rate limits and server errors by default, as `Retry-After` asks, slows the
/// whole run down on a 429, and takes `--retries` and `--timeout`.
final class RetryOptionsTests: CommandLineTestCase {
    private func addresses(_ count: Int) -> String {
        (0..<count).map { "9.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }.joined(separator: "\n") + "\n"
    }

    /// A base URL whose first `count` requests fail with `status` (a 429 says Retry-After: 1).
    private func flaky(_ status: Int, _ count: Int) -> String {
        url + "/flaky/\(status)/\(count)/\(UUID().uuidString)"
    }

    func testRateLimitsAndServerErrorsAreRetriedByDefault() throws {
        for status in [429, 503] {
            let mark = accessLogMark()
            let run = try ipdata(["bulk", "-f", "ip", "--base-url", flaky(status, 2)], stdin: addresses(150))
            XCTAssertEqual(run.status, 0, "\(status): \(run.stderr)")
            XCTAssertEqual(try objects(run).count, 150)
            XCTAssertTrue(try objects(run).allSatisfy { $0["error"] == nil })
            let entries = try accessEntries(since: mark, atLeast: 4)
            XCTAssertEqual(entries.filter { $0.status == status }.count, 2, "\(status)")
            XCTAssertEqual(entries.filter { $0.status == 200 }.count, 2, "the two chunks, answered")
        }
    }

    func testRetriesZeroSendsEachRequestOnce() throws {
        let mark = accessLogMark()
        let run = try ipdata(["8.8.8.8", "--retries", "0", "--base-url", flaky(503, 1)])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: HTTP 503"), run.stderr)
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 1).count, 1)
    }

    func testRetriesCapsTheAttempts() throws {
        let mark = accessLogMark()
        let run = try ipdata(["8.8.8.8", "--retries", "2", "--base-url", flaky(503, 10)])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 3).count, 3, "the request and two retries")
    }

    func testARateLimitedRunSlowsDownAsAWhole() throws {
        // Every request is refused with Retry-After: 1. The first chunk is sent, refused, sent
        // again after a second, refused again and given up; the second chunk then waits out the
        // hold the last 429 set instead of going out at once.
        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "-f", "ip", "--concurrency", "1", "--retries", "1", "--base-url", flaky(429, 1000)],
            stdin: addresses(200))
        XCTAssertEqual(run.status, 1, run.stderr)
        let entries = try accessEntries(since: mark, atLeast: 4).sorted { $0.start < $1.start }
        XCTAssertEqual(entries.count, 4, "two chunks, each sent twice")
        for (earlier, later) in zip(entries, entries.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later.start, earlier.end + 0.9, "a request went out during the hold")
        }
    }

    func testBadRetryAndTimeoutValuesAreUsageErrors() throws {
        for arguments in [["--retries", "-1"], ["--retries", "11"], ["--timeout", "0"], ["--timeout", "2.5"]] {
            let run = try ipdata(["8.8.8.8"] + arguments + base)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(arguments[0]), run.stderr)
        }
    }

    func testTheTimeoutBoundsARequest() throws {
        // The slow mode answers after 5 s; with --timeout 1 and no retries the lookup gives up.
        let start = Date()
        let run = try ipdata(
            ["8.8.8.8", "--timeout", "1", "--retries", "0", "--base-url", server["IPDATA_TEST_URL_SLOW"] ?? ""])
        XCTAssertEqual(run.status, 5, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: Network error: "), run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "it did not wait for the answer")
    }
}
#endif
