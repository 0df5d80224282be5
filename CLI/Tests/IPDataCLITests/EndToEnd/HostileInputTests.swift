// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// Answers no ipdata server sends, and input no person means: each ends in one line that names
/// the cause and what to do, never in a crash, a raw Foundation error or memory that grows for ever.
///
/// The answers come from the backend's `/hostile/KIND/` routes, asked directly over plain HTTP on
/// loopback (which `--base-url` allows), so that what they do stays out of nginx's pool.
final class HostileInputTests: CommandLineTestCase {
    private func hostile(_ kind: String) -> [String] {
        ["--base-url", (server["IPDATA_TEST_URL_BACKEND"] ?? "") + "/hostile/\(kind)"]
    }

    private let notTheAPIsJSON =
        "Decoding failed: the answer is not the API's JSON (check --base-url, or a proxy in between)"

    /// Runs `ipdata arguments…` with standard input read from `stdin`, for at most 30 s.
    private func ipdata(_ arguments: [String], stdin: URL) throws -> BuiltBinary.Run {
        try BuiltBinary.run(arguments, environment: childEnvironment(key: key), stdin: stdin, timeout: 30)
    }

    /// `/dev/zero`: input that never ends, and has no line end.
    private let zeros = URL(fileURLWithPath: "/dev/zero")

    // MARK: Answers (items 24 and 15)

    func testAFieldOfAnAnswerNestedTooDeepIsAnErrorNotACrash() throws {
        // 100,000 nested arrays: the parser once ran out of stack on them (exit status 139).
        let run = try ipdata(["8.8.8.8", "--field", "asn.name"] + hostile("deep-json"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: the answer for asn is JSON nested more than 512 levels deep (at byte 512), which the API never "
                    + "sends (check --base-url, or a proxy in between)"
            ])
    }

    func testAWholeAnswerNestedTooDeepIsNotTheAPIsJSON() throws {
        let run = try ipdata(["8.8.8.8"] + hostile("deep-json"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines, ["ipdata: " + notTheAPIsJSON])
    }

    func testAnHTMLPageWithStatus200IsNotTheAPIsJSON() throws {
        let one = try ipdata(["8.8.8.8"] + hostile("html-ok"))
        XCTAssertEqual(one.status, 1, one.stderr)
        XCTAssertEqual(one.stderrLines, ["ipdata: " + notTheAPIsJSON])

        let several = try ipdata(["8.8.8.8", "1.1.1.1"] + hostile("html-ok"))
        XCTAssertEqual(several.status, 1, several.stderr)
        XCTAssertEqual(try objects(several).map { $0["error"] }, Array(repeating: .string(notTheAPIsJSON), count: 2))
    }

    func testAGatewaysHTMLErrorPageIsItsTitleInEachRecord() throws {
        let run = try ipdata(["8.8.8.8", "1.1.1.1"] + hostile("html-error"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            try objects(run).map { $0["error"] }, Array(repeating: .string("HTTP 502: 502 Bad Gateway"), count: 2))
    }

    func testAStatusWithoutABodyIsNamedByItsReasonPhrase() throws {
        let run = try ipdata(["8.8.8.8"] + hostile("empty-503"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines, ["ipdata: HTTP 503: Service Unavailable"])
    }

    func testAnIPv6LiteralBaseURLWorksOrSaysWhyNot() throws {
        guard let url = server["IPDATA_TEST_URL_NORMAL_V6"] else { throw XCTSkip("this machine has no IPv6 loopback") }
        let run = try ipdata(["8.8.8.8", "--field", "ip", "--base-url", url])
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation refuses such URLs with -1000 (its issue 5496, fixed after 6.3).
        if run.status == 0 { return XCTAssertEqual(run.stdout, "8.8.8.8\n") }
        XCTAssertEqual(run.status, 5, "a network failure: \(run.stderr)")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: Network error: URLSession on Linux cannot reach an IPv6 literal such as [::1] "
                    + "(swift-corelibs-foundation issue 5496): use a host name, such as localhost (URLError -1000)"
            ])
        #else
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "8.8.8.8\n")
        #endif
    }

    // MARK: Input (item 25)

    func testBulkInputWithoutLineEndsStopsAtTheLineLimit() throws {
        let run = try ipdata(["bulk"] + base, stdin: zeros)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines.first,
            "ipdata: line 1 of standard input is longer than 1 MiB: expected one address or CSV row per line")
    }

    func testAnAddressFileWithALineTooLongNamesTheLine() throws {
        let file = try makeFile("8.8.8.8\n" + String(repeating: "1", count: 1_048_577) + "\n1.1.1.1\n")
        let run = try ipdata(["bulk", file.path] + base)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(
            run.stderrLines.first,
            "ipdata: line 2 of \(file.path) is longer than 1 MiB: expected one address or CSV row per line")
    }

    func testACSVRowWhoseQuoteNeverClosesSwallowsNoMoreThanTenLines() throws {
        // A quoted field may span lines in a CSV file (--column), at most ten of them: a quote
        // that never closes is one error record for its line, and every later line is read.
        let file = try makeFile("ip,note\n8.8.8.8,\"unclosed\n" + String(repeating: "1.1.1.1,x\n", count: 40))
        let run = try ipdata(["bulk", file.path, "--column", "ip", "-f", "ip"] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        let records = try objects(run)
        XCTAssertEqual(records.count, 41, "the unclosed line, and each of the forty after it")
        XCTAssertEqual(
            records.first?["error"], .string("line 2 of \(file.path) has an unbalanced quote"))
        XCTAssertTrue(records.dropFirst().allSatisfy { $0["error"] == nil && $0["ip"] == .string("1.1.1.1") })
    }

    func testInitStopsAtAFirstLineLongerThanAnyKey() throws {
        let run = try ipdata(["init"], stdin: zeros)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(
            run.stderrLines, ["ipdata: line 1 of standard input is longer than 4 KiB: expected the API key on one line"]
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: configDirectory.appendingPathComponent("ipdata").path))
    }
}
#endif
