// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// `ipdata enrich`, run as a user would, against the local API server: the input kept line for
/// line and byte for byte, the data added, failures kept with their error.
final class EnrichCommandTests: CommandLineTestCase {
    func testACSVFileKeepsEveryColumnQuotingAndRowAndGainsColumns() throws {
        let rows = [
            "name,ip,note", #""Smith, J",8.8.8.8,"a ""quoted"" note""#, "bad,not-an-ip,x", "",
            "last,1.1.1.1,\"two\nlines\"",
        ]
        let input = try makeFile(rows.joined(separator: "\n") + "\n", named: "hosts.csv")
        let run = try ipdata(["enrich", "-f", "country_code,asn.name", input.path] + base)
        XCTAssertEqual(run.status, 1, "one row failed")
        XCTAssertEqual(
            run.stdout.components(separatedBy: "\n"),
            [
                "name,ip,note,country_code,asn.name,ipdata_error",
                #""Smith, J",8.8.8.8,"a ""quoted"" note",US,Google LLC,"#,
                "bad,not-an-ip,x,,,Bad Request: not-an-ip does not appear to be an IPv4 or IPv6 address", "",
                "last,1.1.1.1,\"two", "lines\",AU,Cloudflare, Inc.,", "",
            ].map { $0.replacingOccurrences(of: "Cloudflare, Inc.", with: "\"Cloudflare, Inc.\"") })
    }

    func testAnUnknownFieldIsAUsageErrorAndNothingIsSent() throws {
        let input = try makeFile("ip\n8.8.8.8\n", named: "hosts.csv")
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-f", "country_code,asn.nmae,contry_name", input.path] + base)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines,
            ["ipdata: --fields: unknown field contry_name: did you mean country_name? (see ipdata enrich --help)"])
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0, "nothing is sent")
    }

    func testJSONLinesGainAKeyAndKeepTheirBytes() throws {
        let lines = [#"{"client_ip":"8.8.8.8",  "n":1}"#, #"{"n":2}"#, "not json"]
        let run = try ipdata(
            ["enrich", "--as", "jsonl", "--column", "client_ip", "-f", "country_code", "-"] + base,
            stdin: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(run.status, 1, "two lines got no data")
        XCTAssertEqual(
            run.stderrLines,
            [#"ipdata: 2 of 3 rows got no data: no address under the key "client_ip" (1); not a JSON object (1)"#])
        XCTAssertEqual(
            run.stdoutLines,
            [
                #"{"client_ip":"8.8.8.8",  "n":1,"ipdata":{"country_code":"US"}}"#,
                #"{"n":2,"ipdata":{"error":"no address under the key client_ip"}}"#, "not json",
            ])
    }

    func testLogLinesAreFollowedByTheirAddresses() throws {
        let log = "sshd: from 8.8.8.8 and [2001:4860::8888]:22\nnothing here\n"
        let run = try ipdata(["enrich", "-f", "country_code", "-"] + base, stdin: log)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdoutLines,
            [
                "sshd: from 8.8.8.8 and [2001:4860::8888]:22", "  ipdata 8.8.8.8: country_code=US",
                "  ipdata 2001:4860::8888: country_code=US", "nothing here",
            ])
    }

    func testARepeatedAddressIsSentOnceAndEveryRowGetsItsData() throws {
        let rows = ["ip"] + (0..<300).map { ["8.8.8.8", "1.1.1.1", "8.8.4.4"][$0 % 3] }
        let input = try makeFile(rows.joined(separator: "\n") + "\n", named: "many.csv")
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-q", "-f", "country_code", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdoutLines,
            ["ip,country_code,ipdata_error"] + rows.dropFirst().map { $0 + ($0 == "1.1.1.1" ? ",AU," : ",US,") })
        let requests = try accessEntries(since: mark, atLeast: 1)
        XCTAssertEqual(requests.count, 1, "one bulk request of the three distinct addresses")
    }

    func testADeadServerKeepsEveryRowWithItsErrorAndExitsFive() throws {
        let input = try makeFile("ip\n8.8.8.8\n", named: "one.csv")
        let run = try ipdata(["enrich", "-f", "country_code", "--base-url", "https://127.0.0.1:9", input.path])
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stdoutLines.first, "ip,country_code,ipdata_error")
        XCTAssertTrue(run.stdoutLines.last?.hasPrefix("8.8.8.8,,Network error: ") == true, run.stdout)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.hasPrefix("ipdata: 1 of 1 row got no data: the lookup failed: Network error: "), run.stderr)
        // Into a file: the earlier enriched file stays as it was.
        let output = try makeFile("ip,country_code,ipdata_error\n8.8.8.8,US,\n", named: "enriched.csv")
        let again = try ipdata(
            ["enrich", "-f", "country_code", "--base-url", "https://127.0.0.1:9", "--output", output.path, input.path])
        XCTAssertEqual(again.status, 5, again.stderr)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "ip,country_code,ipdata_error\n8.8.8.8,US,\n")
        XCTAssertTrue(again.stderr.contains("nothing was written: \(output.path) was left as it was"), again.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path).sorted(),
            ["enriched.csv"])
    }

    /// Rows of private addresses are answered locally: they say nothing of the API, and a dead
    /// server still leaves the file as it was.
    func testADeadServerKeepsTheFileEvenWhenPrivateRowsWereAnswered() throws {
        let input = try makeFile("ip\n8.8.8.8\n10.0.0.1\n192.168.1.1\n", named: "mixed.csv")
        let output = try makeFile("ip,country_code,ipdata_error\n8.8.8.8,US,\n", named: "enriched.csv")
        let run = try ipdata(
            ["enrich", "-f", "country_code", "--base-url", "https://127.0.0.1:9", "--output", output.path, input.path])
        XCTAssertEqual(run.status, 5, run.stderr)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "ip,country_code,ipdata_error\n8.8.8.8,US,\n")
        XCTAssertTrue(run.stderr.contains("nothing was written: \(output.path) was left as it was"), run.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path).sorted(),
            ["enriched.csv"])
    }

    /// A refused key stops the run at its first lookup: the file is kept, and no partial output
    /// holding only the header is left beside it.
    func testARefusedKeyLeavesNoPartialOutput() throws {
        let input = try makeFile("ip\n8.8.8.8\n1.1.1.1\n", named: "hosts.csv")
        let output = try makeFile("keep me\n", named: "enriched.csv")
        let run = try ipdata(["enrich", "--output", output.path, input.path] + base, key: .given("wrong-key"))
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "keep me\n")
        XCTAssertTrue(run.stderr.contains("nothing was written: \(output.path) was left as it was"), run.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path).sorted(),
            ["enriched.csv"])
    }

    func testAMissingColumnIsAUsageErrorAndTheFileIsKept() throws {
        let input = try makeFile("host,addr\nx,8.8.8.8\n", named: "in.csv")
        let output = try makeTemporaryDirectory().appendingPathComponent("out.csv")
        try Data("keep me\n".utf8).write(to: output)
        let run = try ipdata(["enrich", "--column", "ip_address", "--output", output.path, input.path] + base)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("the header row has no column ip_address"), run.stderr)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "keep me\n")
    }
}
#endif
