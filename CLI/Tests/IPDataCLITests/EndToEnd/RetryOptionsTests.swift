// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata` retries rate limits and server errors by default, as `Retry-After` asks, slows the
/// whole run down on a 429, and takes `--retries` and `--timeout`. A bulk request the server may
/// have read (a 5xx, a reset after its body) is sent once, unless `--resend-bulk`. The summary
/// counts every request the server saw, and a rate-limited run says so and exits 6.
final class RetryOptionsTests: CommandLineTestCase {
    private func addresses(_ count: Int) -> String {
        (0..<count).map { "9.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }.joined(separator: "\n") + "\n"
    }

    /// A base URL whose first `count` requests fail with `status` (a 429 says Retry-After: 1).
    private func flaky(_ status: Int, _ count: Int) -> String {
        url + "/flaky/\(status)/\(count)/\(UUID().uuidString)"
    }

    /// The POST /bulk requests carrying `token` that the backend read (its body included) since
    /// `mark`, once there are at least `count` of them, or after 5 s.
    private func bulkBodiesRead(token: String, since mark: UInt64, atLeast count: Int) throws -> [Record] {
        let path = server["IPDATA_TEST_BACKEND_LOG"] ?? ""
        let deadline = Date().addingTimeInterval(5)
        while true {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            try handle.seek(toOffset: mark)
            let data = try handle.readToEnd() ?? Data()
            try handle.close()
            let entries = try data.split(separator: UInt8(ascii: "\n")).map {
                try object(String(decoding: $0, as: UTF8.self))
            }
            .filter {
                guard case .string(let logged)? = $0["path"], case .string("POST")? = $0["method"] else { return false }
                return logged.contains(token) && logged.hasSuffix("/bulk")
            }
            if entries.count >= count || Date() > deadline { return entries }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func testRateLimitsAreRetriedByDefaultAndEveryRequestIsCounted() throws {
        let mark = accessLogMark()
        let run = try ipdata(["bulk", "-f", "ip", "--base-url", flaky(429, 2)], stdin: addresses(150))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try objects(run).count, 150)
        XCTAssertTrue(try objects(run).allSatisfy { $0["error"] == nil })
        let entries = try accessEntries(since: mark, atLeast: 4)
        XCTAssertEqual(entries.filter { $0.status == 429 }.count, 2)
        XCTAssertEqual(entries.filter { $0.status == 200 }.count, 2, "the two chunks, answered")
        // Every request the server saw, the retries included (it said 2).
        XCTAssertEqual(run.stderrLines.count, 2, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: 150 records, 0 failed, 4 requests sent, "), run.stderr)
        XCTAssertEqual(
            run.stderrLines.last,
            "ipdata: the API limited the rate: 2 answers were 429 Too Many Requests (the last said Retry-After: 1)")
    }

    func testServerErrorsOfALookupAreRetriedByDefault() throws {
        let mark = accessLogMark()
        let run = try ipdata(["8.8.8.8", "--base-url", flaky(503, 2)])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try object(run.stdout)["ip"], .string("8.8.8.8"))
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 3).map(\.status), [503, 503, 200])
    }

    /// The API bills a bulk request it answered: after a 502, which a gateway may send once the
    /// API answered, or a reset after the server read the body (plain http to the backend), the
    /// request is not sent again; with --resend-bulk it is. Counted where the bodies are read.
    func testABulkRequestTheServerMayHaveReadIsSentOnceUnlessResendBulk() throws {
        let backend = server["IPDATA_TEST_URL_BACKEND"] ?? ""
        let cases: [(name: String, base: (String) -> String, failedStatus: Int32)] = [
            ("502", { self.url + "/flaky/502/1/\($0)" }, 1),
            ("reset after the body", { backend + "/reset-after-body/1/\($0)" }, 5),
        ]
        for (name, base, failedStatus) in cases {
            for resends in [false, true] {
                let token = UUID().uuidString
                let mark = backendLogMark()
                let run = try ipdata(
                    ["bulk", "-q", "-f", "ip", "--concurrency", "1", "--base-url", base(token)]
                        + (resends ? ["--resend-bulk"] : []),
                    stdin: addresses(150))
                let read = try bulkBodiesRead(token: token, since: mark, atLeast: resends ? 3 : 2)
                Thread.sleep(forTimeInterval: 0.2)
                let all = try bulkBodiesRead(token: token, since: mark, atLeast: 0)
                XCTAssertEqual(read.count, all.count, name)
                let records = try objects(run)
                XCTAssertEqual(records.count, 150, name)
                if resends {
                    XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
                    XCTAssertEqual(all.count, 3, "\(name), --resend-bulk: the first chunk twice, the second once")
                    XCTAssertTrue(records.allSatisfy { $0["error"] == nil }, name)
                } else {
                    XCTAssertEqual(run.status, failedStatus, "\(name): \(run.stderr)")
                    XCTAssertEqual(all.count, 2, "\(name): each chunk once; the server had read the first")
                    XCTAssertEqual(records.filter { $0["error"] != nil }.count, 100, name)
                }
            }
        }
    }

    func testARateLimitedRunCountsEveryAttemptSaysSoAndExits6() throws {
        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "-f", "ip", "--retries", "1"] + base, key: .given("ratelimit-key"), stdin: addresses(300))
        XCTAssertEqual(run.status, 6, run.stderr)
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 6).count, 6, "three chunks, each sent twice")
        let records = try objects(run)
        XCTAssertEqual(records.count, 300)
        XCTAssertTrue(records.allSatisfy { $0["error"] == .string("HTTP 429: Too Many Requests") }, "\(records[0])")
        XCTAssertTrue(
            run.stderrLines.first?.hasPrefix("ipdata: 300 records, 300 failed, 6 requests sent, ") == true, run.stderr)
        XCTAssertEqual(run.stderrLines.last, "ipdata: the API limited the rate: 6 answers were 429 Too Many Requests")
        // A cron job sees it, and its status, with --quiet.
        let quiet = try ipdata(
            ["bulk", "-q", "-f", "ip", "--retries", "0"] + base, key: .given("ratelimit-key"), stdin: addresses(5))
        XCTAssertEqual(quiet.status, 6, quiet.stderr)
        XCTAssertEqual(quiet.stderrLines, ["ipdata: the API limited the rate: 1 answer was 429 Too Many Requests"])
        let help = try ipdata(["bulk", "--help"], key: .absent)
        XCTAssertTrue(help.stdout.contains("6 the API limited the rate (429)"), help.stdout)
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
        XCTAssertEqual(run.status, 6, run.stderr)
        XCTAssertTrue(run.stderr.contains(", 4 requests sent, "), run.stderr)
        XCTAssertTrue(
            run.stderr.hasSuffix(
                "ipdata: the API limited the rate: 4 answers were 429 Too Many Requests (the last said Retry-After: 1)\n"
            ),
            run.stderr)
        let entries = try accessEntries(since: mark, atLeast: 4).sorted { $0.start < $1.start }
        XCTAssertEqual(entries.count, 4, "two chunks, each sent twice")
        for (earlier, later) in zip(entries, entries.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later.start, earlier.end + 0.9, "a request went out during the hold")
        }
    }

    func testBadRetryAndTimeoutValuesAreUsageErrors() throws {
        for arguments in [
            ["--retries", "-1"], ["--retries", "11"], ["--timeout", "0"], ["--timeout", "2.5"],
            ["--resend-bulk", "--retries", "0"],
        ] {
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
