// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// `--quiet` leaves out what a cron job does not need (the summary, the bar, notices) and keeps
/// what it must mail (errors, where to start again); `--verbose` says where the key comes from
/// and prints each request, the key hidden.
final class QuietAndVerboseTests: CommandLineTestCase {
    // MARK: --quiet

    func testQuietLeavesOutTheSummary() throws {
        let run = try ipdata(["bulk", "--quiet"] + base, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines.count, 2)
        XCTAssertEqual(run.stderr, "")
    }

    func testQuietLeavesOutTheSandboxNotice() throws {
        let run = try ipdata(["--sandbox", "-q", "8.8.8.8", "--field", "country_code"], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "US\n")
        XCTAssertEqual(run.stderr, "")
    }

    func testQuietKeepsARefusedKeyAndWhereToStartAgain() throws {
        // The server answers one request, then refuses the next as over the quota.
        let lines = (0..<150).map { "9.2.\($0 / 256).\($0 % 256)" }
        let input = try makeFile(lines.joined(separator: "\n") + "\n", named: "ips.txt")
        let quota = url + "/quota-after/1/\(UUID().uuidString)"
        let run = try ipdata(["bulk", "--quiet", "--concurrency", "1", "--base-url", quota, input.path])
        XCTAssertEqual(run.status, 4)
        guard run.stderrLines.count == 2 else { return XCTFail("two lines: \(run.stderr)") }
        XCTAssertTrue(run.stderrLines[0].hasPrefix("ipdata: Forbidden: "), run.stderr)
        XCTAssertTrue(run.stderrLines[1].hasPrefix("ipdata: stopped at line 101 of \(input.path): "), run.stderr)
    }

    func testQuietKeepsTheErrorOfAFailedLookup() throws {
        let run = try ipdata(["10.0.0.1", "--quiet"] + base)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderrLines, ["ipdata: Bad Request: 10.0.0.1 is a private IP address"])
    }

    func testQuietKeepsTheErrorAboutAnUnknownField() throws {
        let run = try ipdata(["8.8.8.8", "-q", "-f", "ip,contry_code"] + base)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(
            run.stderrLines,
            ["ipdata: --fields: unknown field contry_code: did you mean country_code? (see ipdata --help)"])
    }

    func testQuietAndVerboseTogetherAreAUsageError() throws {
        let run = try ipdata(["8.8.8.8", "--quiet", "--verbose"] + base)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderrLines, ["ipdata: use --quiet or --verbose, not both (see ipdata --help)"])
    }

    func testHelpSaysWhatQuietKeeps() throws {
        for command in [["--help"], ["bulk", "--help"]] {
            // Help is wrapped to the terminal's width: its words, one space apart.
            let help = try ipdata(command).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(help.contains("errors, warnings and where to start again after a stop are still"), help)
        }
    }

    // MARK: --verbose

    /// `ipdata: GET https://127.0.0.1:PORT/8.8.8.8/country_code?api-key=REDACTED → 200 (N ms)`.
    private func assertRequestLine(
        _ line: String, _ method: String, _ path: String, status: Int, file: StaticString = #filePath,
        lineNumber: UInt = #line
    ) {
        let prefix = "ipdata: \(method) \(url)\(path)"
        XCTAssertTrue(line.hasPrefix(prefix), "\(line) starts with \(prefix)", file: file, line: lineNumber)
        let rest = line.dropFirst(prefix.count)
        XCTAssertTrue(rest.contains("api-key=REDACTED"), line, file: file, line: lineNumber)
        XCTAssertNotNil(
            rest.range(of: #" → \#(status) \([0-9]+ ms\)$"#, options: .regularExpression), line, file: file,
            line: lineNumber)
    }

    func testVerbosePrintsEachRequestWithTheKeyHidden() throws {
        // One address each: a single lookup, which is sent even for a private address.
        var requests: [String] = []
        for address in ["10.0.0.1", "8.8.8.8"] {
            let run = try ipdata([address, "--field", "country_code", "--verbose"] + base)
            XCTAssertFalse(run.stderr.contains(key), run.stderr)
            XCTAssertEqual(run.stderrLines.first, "ipdata: API key from IPDATA_API_KEY")
            requests += run.stderrLines.dropFirst().filter { $0.hasPrefix("ipdata: GET ") }
        }
        guard requests.count == 2 else { return XCTFail("two requests: \(requests)") }
        assertRequestLine(requests[0], "GET", "/10.0.0.1/country_code?", status: 400)
        assertRequestLine(requests[1], "GET", "/8.8.8.8/country_code?", status: 200)
    }

    func testVerbosePrintsABulkRequest() throws {
        let run = try ipdata(["bulk", "--verbose", "-f", "ip"] + base, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        let requests = run.stderrLines.filter { $0.hasPrefix("ipdata: POST ") }
        guard requests.count == 1 else { return XCTFail("one request: \(run.stderr)") }
        assertRequestLine(requests[0], "POST", "/bulk?", status: 200)
    }

    func testVerboseSaysWhereTheKeyComesFrom() throws {
        let option = try ipdata(["8.8.8.8", "--verbose", "--api-key", key] + base, key: .absent)
        XCTAssertEqual(option.stderrLines.first, "ipdata: API key from --api-key")
        XCTAssertEqual(try ipdata(["init", key], key: .absent).status, 0)
        let file = try ipdata(["8.8.8.8", "--verbose"] + base, key: .absent)
        XCTAssertEqual(
            file.stderrLines.first,
            "ipdata: API key from \(configDirectory.appendingPathComponent("ipdata/config").path)")
        for run in [option, file] {
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertFalse(run.stderr.contains(key), run.stderr)
        }
    }

    func testVerboseSaysWhyARequestGotNoAnswer() throws {
        let run = try ipdata(["8.8.8.8", "--verbose", "--retries", "0", "--base-url", "https://127.0.0.1:9"])
        XCTAssertEqual(run.status, 5)
        XCTAssertTrue(
            run.stderrLines.contains {
                $0.hasPrefix("ipdata: GET https://127.0.0.1:9/8.8.8.8?api-key=REDACTED → Network error: ")
            }, run.stderr)
    }
}
#endif
