// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata bulk`, run as a user would, against the local server.
final class BulkCommandTests: CommandLineTestCase {
    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { "9.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
    }

    func testAFileOfAddressesIsJSONLinesInOrderWithASummary() throws {
        let file = try makeFile("# resolvers\n8.8.8.8\n\n1.1.1.1\r\n  2001:4860:4860::8844  \n")
        let run = try ipdata(["bulk", file.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            try objects(run).map { $0["ip"] }, ["8.8.8.8", "1.1.1.1", "2001:4860:4860::8844"].map(JSONValue.string))
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: 3 records, 0 failed, 1 request sent, "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix(" s elapsed\n"), run.stderr)
        XCTAssertFalse(run.stderr.contains("\r"), "no progress bar when stderr is not a terminal")
    }

    func testStandardInputIsTheDefaultAndDash() throws {
        for arguments in [["bulk"] + base, ["bulk", "-"] + base, ["bulk"] + base + ["--", "-"]] {
            let run = try ipdata(arguments, stdin: "8.8.8.8\n1.1.1.1\n")
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(try objects(run).map { $0["ip"] }, ["8.8.8.8", "1.1.1.1"].map(JSONValue.string))
        }
    }

    /// The shared options (here `--base-url`) may come before the command word; the command's
    /// own come after it (see CHANGELOG).
    func testSharedOptionsMayComeBeforeTheCommand() throws {
        let run = try ipdata(base + ["bulk", "-f", "ip", "--format", "csv"], stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "ip,error\n8.8.8.8,\n")
        let before = try ipdata(base + ["-f", "ip", "bulk"], stdin: "8.8.8.8\n")
        XCTAssertEqual(before.status, 2)
        XCTAssertEqual(
            before.stderrLines,
            ["ipdata: bulk is a command, not an address: ipdata bulk [OPTIONS] … (see ipdata --help)"])
    }

    func testAnUnknownFieldIsAUsageErrorAndErrorIsAField() throws {
        let run = try ipdata(["bulk", "-f", "ip,error,cuntry_code", "--format", "csv"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines,
            ["ipdata: --fields: unknown field cuntry_code: did you mean country_code? (see ipdata bulk --help)"])
        let known = try ipdata(["bulk", "-f", "ip,error", "--format", "csv", "-q"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(known.status, 0, known.stderr)
        XCTAssertEqual(known.stdout, "ip,error\n8.8.8.8,\n")
    }

    func testSeveralFilesAreReadInOrder() throws {
        let first = try makeFile("8.8.8.8\n", named: "a.txt")
        let second = try makeFile("1.1.1.1\n", named: "b.txt")
        let run = try ipdata(["bulk", first.path, "-", second.path] + base, stdin: "9.9.9.9\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try objects(run).map { $0["ip"] }, ["8.8.8.8", "9.9.9.9", "1.1.1.1"].map(JSONValue.string))
    }

    func testACSVFileByColumnNameToCSVOutput() throws {
        let csv = try makeFile(
            "host,ip_address,note\nweb,8.8.8.8,\"a, b\"\ndns,\"1.1.1.1\",x\nlan,10.0.0.1,\n", named: "hosts.csv")
        let run = try ipdata(
            ["bulk", "--column", "ip_address", "--format", "csv", "--fields", "ip,country_code,asn.name", csv.path]
                + base)
        XCTAssertEqual(run.status, 1, "one address failed")
        XCTAssertEqual(
            run.stdout,
            """
            ip,country_code,asn.name,error
            8.8.8.8,US,Google LLC,
            1.1.1.1,AU,"Cloudflare, Inc.",
            10.0.0.1,,,Bad Request: 10.0.0.1 is a private IP address

            """)
        XCTAssertTrue(
            run.stderr.hasPrefix(
                "ipdata: 3 records, 1 failed, 1 request sent, "),
            run.stderr)
    }

    func testACSVErrorRowHasItsAddressAndTheError() throws {
        let run = try ipdata(["bulk", "--format", "csv", "-f", "ip"] + base, stdin: "10.0.0.1\n")
        XCTAssertEqual(run.stdout, "ip,error\n10.0.0.1,Bad Request: 10.0.0.1 is a private IP address\n")
    }

    func testACSVColumnByNumber() throws {
        let run = try ipdata(
            ["bulk", "--column", "2", "-f", "ip"] + base, stdin: "Google,8.8.8.8\n\"Cloudflare, Inc.\",1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        // The API's own tokens, compact (the test server writes `": "`), one record a line.
        XCTAssertEqual(run.stdout, "{\"ip\":\"8.8.8.8\"}\n{\"ip\":\"1.1.1.1\"}\n")
    }

    func testAMissingColumnNameIsAUsageError() throws {
        let run = try ipdata(["bulk", "--column", "ip"] + base, stdin: "host,address\nweb,8.8.8.8\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.first, "ipdata: standard input has no column named ip in its header row")
    }

    func testInvalidAddressesAreInlineErrorRecordsAndTheRunGoesOn() throws {
        let run = try ipdata(["bulk"] + base, stdin: "8.8.8.8\nnot-an-ip\n10.0.0.1\n1.1.1.1\n")
        XCTAssertEqual(run.status, 1)
        let results = try objects(run)
        XCTAssertEqual(results.map { $0["ip"] }, ["8.8.8.8", "not-an-ip", "10.0.0.1", "1.1.1.1"].map(JSONValue.string))
        XCTAssertEqual(
            results[1]["error"], .string("Bad Request: not-an-ip does not appear to be an IPv4 or IPv6 address"))
        XCTAssertEqual(results[2]["error"], .string("Bad Request: 10.0.0.1 is a private IP address"))
        XCTAssertNil(results[3]["error"])
        XCTAssertTrue(
            run.stderr.hasPrefix(
                "ipdata: 4 records, 2 failed, 1 request sent, "),
            run.stderr)
    }

    func testRangesAreLookedUpAddressByAddressAndTooLargeOnesNotAtAll() throws {
        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "--max-addresses", "4", "-q"] + base, stdin: "8.8.8.0/30\n1.1.1.1-1.1.1.2\n8.0.0.0/8\n")
        XCTAssertEqual(run.status, 1, "the range over the cap fails the run")
        let results = try objects(run)
        XCTAssertEqual(
            results.map { $0["ip"] },
            ["8.8.8.0", "8.8.8.1", "8.8.8.2", "8.8.8.3", "1.1.1.1", "1.1.1.2", "8.0.0.0/8"].map(JSONValue.string))
        XCTAssertEqual(
            results[6]["error"],
            .string("8.0.0.0/8 holds 16,777,216 addresses, more than --max-addresses 4: nothing was looked up"))
        let requests = try accessEntries(since: mark, atLeast: 1)
        XCTAssertEqual(requests.count, 1, "one bulk request of the six addresses")
        XCTAssertEqual(requests.first?.uri, "/bulk")
    }

    func testTenThousandAddressesInInputOrderFromAtMostAHundredRequests() throws {
        var ips = addresses(10_000)
        ips[4_321] = "10.1.2.3"
        let file = try makeFile(ips.joined(separator: "\n") + "\n", named: "ips.txt")
        let mark = accessLogMark()
        let run = try ipdata(["bulk", file.path] + base)
        XCTAssertEqual(run.status, 1, "the rejected address fails the run")
        let results = try objects(run)
        XCTAssertEqual(results.count, 10_000)
        XCTAssertEqual(results.map { $0["ip"] }, ips.map(JSONValue.string))
        let failed = results.enumerated().filter { $0.element["error"] != nil }
        XCTAssertEqual(failed.map(\.offset), [4_321])
        XCTAssertEqual(failed.first?.element["error"], .string("Bad Request: 10.1.2.3 is a private IP address"))
        XCTAssertNil(results[0]["error"])
        XCTAssertEqual(results[9_999].value(at: "asn.name"), .string("Google LLC"))

        let bulkRequests = try accessEntries(since: mark, atLeast: 100).filter {
            $0.method == "POST" && $0.uri == "/bulk"
        }
        XCTAssertLessThanOrEqual(bulkRequests.count, 100)
        XCTAssertEqual(bulkRequests.count, 100)
        XCTAssertTrue(bulkRequests.allSatisfy { $0.status == 200 })
        XCTAssertTrue(
            run.stderr.hasPrefix(
                "ipdata: 10000 records, 1 failed, 100 requests sent, "
            ), run.stderr)
    }

    func testConcurrencyOneStillKeepsInputOrder() throws {
        let ips = addresses(250)
        let run = try ipdata(["bulk", "--concurrency", "1", "-f", "ip"] + base, stdin: ips.joined(separator: "\n"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try objects(run).map { $0["ip"] }, ips.map(JSONValue.string))
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: 250 records, 0 failed, 3 requests sent, "), run.stderr)
    }

    func testAFreePlanGoesOnWithSingleLookupsAndSaysSoOnce() throws {
        let ips = addresses(150)
        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "-f", "ip"] + base, key: .given(server["IPDATA_TEST_FREE_KEY"] ?? "free-key"),
            stdin: ips.joined(separator: "\n"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try objects(run).map { $0["ip"] }, ips.map(JSONValue.string))
        let notices = run.stderrLines.filter { $0.contains("single lookups") }
        XCTAssertEqual(
            notices, ["ipdata: this API key's plan does not allow bulk requests: continuing with single lookups"])
        XCTAssertEqual(run.stderrLines.count, 2, "the notice and the summary: \(run.stderr)")
        let singles = try accessEntries(since: mark, atLeast: 150).filter { $0.method == "GET" }
        XCTAssertEqual(singles.count, 150)
    }

    func testABadKeyStopsTheRunWithOneErrorLine() throws {
        let run = try ipdata(["bulk"] + base, key: .given("not-a-key"), stdin: addresses(300).joined(separator: "\n"))
        XCTAssertEqual(run.status, 3, "the exit status of a refused key")
        XCTAssertEqual(run.stdout, "")
        let errors = run.stderrLines.filter { $0.contains("Unauthorized") }
        XCTAssertEqual(errors.count, 1, run.stderr)
        XCTAssertEqual(run.stderrLines.first, errors.first)
    }

    func testANetworkFailureBecomesErrorRecordsAndTheExitStatusIsFive() throws {
        let run = try ipdata(["bulk", "--base-url", "https://127.0.0.1:9"], stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 5, "the exit status of a network failure")
        let results = try objects(run)
        XCTAssertEqual(results.map { $0["ip"] }, ["8.8.8.8", "1.1.1.1"].map(JSONValue.string))
        for result in results {
            guard case .string(let error)? = result["error"] else { return XCTFail("no error in \(result)") }
            XCTAssertTrue(error.hasPrefix("Network error: ") && error.hasSuffix("(URLError -1004)"), error)
        }
        XCTAssertEqual(run.stderrLines.count, 2, run.stderr)
        XCTAssertTrue(run.stderrLines.first?.hasPrefix("ipdata: no lookup got an answer: Network error: ") == true)
        XCTAssertTrue(
            run.stderrLines.last?.hasPrefix("ipdata: 2 records, 2 failed, 0 requests sent, ") == true,
            "a refused connection sent nothing")
    }

    /// A run in which no lookup reached the API replaces no `--output` file with rows of errors.
    func testANetworkFailureOfEveryLookupLeavesTheOutputFileAsItWas() throws {
        let output = try makeFile("{\"ip\":\"8.8.8.8\",\"country_code\":\"US\"}\n", named: "earlier.jsonl")
        let run = try ipdata(
            ["bulk", "--base-url", "https://127.0.0.1:9", "--output", output.path], stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 5, run.stderr)
        XCTAssertEqual(
            try String(contentsOf: output, encoding: .utf8), "{\"ip\":\"8.8.8.8\",\"country_code\":\"US\"}\n")
        XCTAssertTrue(run.stderr.contains("no lookup got an answer: Network error: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("nothing was written: \(output.path) was left as it was"), run.stderr)
        // Nor is a file of nothing but errors left beside it.
        let folder = output.deletingLastPathComponent().path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["earlier.jsonl"])
        // A run with one answer among the failures is a run: its output replaces the file.
        let mixed = try ipdata(["bulk", "--output", output.path] + base, stdin: "8.8.8.8\nnot-an-address\n")
        XCTAssertEqual(mixed.status, 1, mixed.stderr)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8).split(separator: "\n").count, 2)
    }

    func testAMissingFileIsAUsageErrorBeforeAnyRequest() throws {
        let mark = accessLogMark()
        let run = try ipdata(["bulk", "/nonexistent/ips.txt"] + base)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderrLines, ["ipdata: cannot read /nonexistent/ips.txt: no such file"])
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0)
    }

    func testNoProgressIsAccepted() throws {
        let run = try ipdata(["bulk", "--no-progress"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1)
    }

    func testOnATerminalAProgressBarIsDrawnOnStandardError() throws {
        let script = try terminalScript()
        let file = try makeFile(addresses(500).joined(separator: "\n"), named: "ips.txt")
        let output = home.appendingPathComponent("out.jsonl")
        for (extra, drawsBar) in [([String](), true), (["--no-progress"], false)] {
            let command = ([BuiltBinary.url.path, "bulk", file.path, "--output", output.path] + base + extra)
                .map { "'\($0)'" }.joined(separator: " ")
            let run = try BuiltBinary.run(
                ["--quiet", "--return", "--command", command, "/dev/null"], executable: script,
                environment: childEnvironment(key: key))
            XCTAssertEqual(run.status, 0, run.stdout)
            XCTAssertEqual(run.stdout.contains("\r["), drawsBar, run.stdout)
            XCTAssertEqual(run.stdout.contains("/500 records  "), drawsBar, run.stdout)
            XCTAssertTrue(run.stdout.contains("ipdata: 500 records, 0 failed, 5 requests sent"), run.stdout)
        }
    }
}
#endif
