// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// A run that cannot go on (a refused key, an exhausted quota) accounts for every address, keeps
/// every answer that arrived, says where to start again, and exits with the class of its cause.
final class RunStopTests: CommandLineTestCase {
    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { "9.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
    }

    /// The counts of the summary line: records, failed, refused, not attempted.
    private func summary(_ stderr: String) throws -> [String: Int] {
        let line = try XCTUnwrap(stderr.split(separator: "\n").first { $0.contains(" records, ") })
        var counts: [String: Int] = [:]
        for part in line.dropFirst("ipdata: ".count).split(separator: ",") {
            let words = part.split(separator: " ")
            guard let number = Int(words[0]) else { continue }
            counts[words.dropFirst().joined(separator: " ")] = number
        }
        return counts
    }

    func testAQuotaExhaustedMidRunWritesEveryAnswerAndSaysWhereToStartAgain() throws {
        let all = addresses(1000)
        let input = try makeFile(all.joined(separator: "\n") + "\n", named: "ips.txt")
        // The server answers three requests, then refuses every one as over the daily quota.
        let quota = url + "/quota-after/3/\(UUID().uuidString)"
        let run = try ipdata(["bulk", input.path, "-f", "ip", "--concurrency", "4", "--base-url", quota])
        XCTAssertEqual(run.status, 4, "the exit status of an exhausted quota: \(run.stderr)")
        let written = try objects(run).compactMap { record -> String? in
            guard case .string(let ip)? = record["ip"] else { return nil }
            return ip
        }
        XCTAssertEqual(written.count, 300, "the three answered requests, every one of their addresses")
        XCTAssertTrue(try objects(run).allSatisfy { $0["error"] == nil }, "a refused address gets no record")
        let counts = try summary(run.stderr)
        XCTAssertEqual(counts["records"], 300)
        XCTAssertEqual(counts["failed"], 0)
        let refused = try XCTUnwrap(counts["refused"])
        let notAttempted = try XCTUnwrap(counts["not attempted"], run.stderr)
        XCTAssertEqual(300 + refused + notAttempted, 1000, "every address accounted for: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("ipdata: Forbidden: You have made 20,000 requests"), run.stderr)

        // The restart line names the first refused address's line, and the command to go on.
        let restart = try XCTUnwrap(run.stderrLines.first { $0.hasPrefix("ipdata: stopped at line ") }, run.stderr)
        let line = try XCTUnwrap(Int(restart.dropFirst("ipdata: stopped at line ".count).prefix { $0.isNumber }))
        XCTAssertFalse(written.contains(all[line - 1]), "the line to start from was not written")
        XCTAssertTrue(Set(all[..<(line - 1)]).isSubset(of: written), "every address before it was written")
        // Requests in flight when the refusal came were answered and billed: their answers are kept.
        let after = written.filter { all.firstIndex(of: $0)! >= line - 1 }.count
        XCTAssertEqual(after, 300 - (line - 1))
        XCTAssertTrue(
            restart.contains(
                "of \(input.path): to go on from there, run `tail -n +\(line) \(input.path) | ipdata bulk [options] -`"),
            restart)
        if after > 0 {
            XCTAssertTrue(restart.hasSuffix("\(after) addresses after it were answered and written"), restart)
        }
        // Only requests already in flight went out after the refusal: at most one window.
        XCTAssertLessThanOrEqual(refused, 4 * 100)
    }

    func testARefusedKeyStopsAtOnceWithItsExitStatus() throws {
        let run = try ipdata(
            ["bulk", "-f", "ip"] + base, key: .given("not-a-key"), stdin: addresses(250).joined(separator: "\n"))
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        let counts = try summary(run.stderr)
        XCTAssertEqual((counts["refused"] ?? 0) + (counts["not attempted"] ?? 0), 250, run.stderr)
        XCTAssertFalse(run.stderr.contains("stopped at line"), "nothing was written: no line to start again from")
    }

    func testExitStatusesTellTheClassOfTheFailure() throws {
        XCTAssertEqual(try ipdata(["8.8.8.8"] + base).status, 0, "success")
        XCTAssertEqual(try ipdata(["8.8.8.8", "10.0.0.1"] + base).status, 1, "one address failed")
        XCTAssertEqual(try ipdata(["8.8.8.8", "--format", "yaml"] + base).status, 2, "usage")
        XCTAssertEqual(try ipdata(["8.8.8.8"] + base, key: .given("not-a-key")).status, 3, "key refused")
        let quotaKey = server["IPDATA_TEST_QUOTA_KEY"] ?? "quota-key"
        XCTAssertEqual(try ipdata(["8.8.8.8"] + base, key: .given(quotaKey)).status, 4, "quota exhausted")
        XCTAssertEqual(
            try ipdata(["bulk"] + base, key: .given(quotaKey), stdin: "8.8.8.8\n").status, 4, "quota exhausted, bulk")
        XCTAssertEqual(try ipdata(["8.8.8.8", "--base-url", "https://127.0.0.1:9"]).status, 5, "network")
        let help = try ipdata(["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(help.contains("3 the API key was refused; 4 the quota is exhausted"), help)
    }
}
#endif
