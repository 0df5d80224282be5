// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata bulk --resume`: an interrupted run continued, each address answered once, in order.
/// Against the local server, so that the requests can be counted.
final class ResumeTests: CommandLineTestCase {
    private func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testAJSONLinesOutputKeepsItsAnswersAndGetsOnlyWhatItLacks() throws {
        let folder = try makeTemporaryDirectory()
        let output = folder.appendingPathComponent("out.jsonl")
        // An earlier run: two answers, an error record, and a last line cut off mid-write.
        let first = try ipdata(["bulk", "-q", "--output", output.path] + base, stdin: "8.8.8.8\n1.1.1.1\n10.0.0.1\n")
        XCTAssertEqual(first.status, 1)
        let handle = try FileHandle(forWritingTo: output)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"ip":"9.9.9.9","cou"#.utf8))
        try handle.close()

        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "--resume", "--output", output.path] + base,
            stdin: "8.8.8.8\n1.1.1.1\n10.0.0.1\n9.9.9.9\n4.4.4.4\n")
        XCTAssertEqual(run.status, 1, "10.0.0.1 is still private")
        XCTAssertTrue(
            run.stderr.contains("resuming \(output.path): 2 records kept, 2 failed or cut off (looked up again)"),
            run.stderr)
        let records = try lines(of: output).map { try JSONParser.parse(Data($0.utf8)).value(at: ["ip"]) }
        XCTAssertEqual(records, ["8.8.8.8", "1.1.1.1", "10.0.0.1", "9.9.9.9", "4.4.4.4"].map(JSONValue.string))
        let sent = try accessEntries(since: mark, atLeast: 1).filter { $0.method == "POST" }
        XCTAssertEqual(sent.count, 1, "one bulk request")
        XCTAssertTrue(
            run.stderr.contains("ipdata: 3 records, 1 failed, 1 request sent"), "only three looked up: \(run.stderr)")
    }

    func testACSVOutputIsContinuedUnderItsHeader() throws {
        let output = try makeTemporaryDirectory().appendingPathComponent("out.csv")
        let csv = ["--format", "csv", "-f", "ip,country_code"]
        _ = try ipdata(["bulk", "-q", "--output", output.path] + csv + base, stdin: "8.8.8.8\n")
        let run = try ipdata(
            ["bulk", "-q", "--resume", "--output", output.path] + csv + base, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try lines(of: output), ["ip,country_code,error", "8.8.8.8,US,", "1.1.1.1,AU,"])
        let other = try ipdata(
            ["bulk", "-q", "--resume", "--output", output.path, "--format", "csv", "-f", "ip"] + base,
            stdin: "4.4.4.4\n")
        XCTAssertEqual(other.status, 2)
        XCTAssertTrue(other.stderr.contains("has the columns ip,country_code,error"), other.stderr)
        XCTAssertEqual(try lines(of: output).count, 3, "the file is left as it was")
    }

    func testResumeNeedsAFileAndLines() throws {
        let plain = try ipdata(["bulk", "--resume"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(plain.status, 2)
        XCTAssertTrue(plain.stderr.contains("--resume needs --output FILE"), plain.stderr)
        let output = try makeTemporaryDirectory().appendingPathComponent("out.json")
        let array = try ipdata(["bulk", "--resume", "--format", "json", "--output", output.path] + base, stdin: "")
        XCTAssertEqual(array.status, 2)
        XCTAssertTrue(array.stderr.contains("--resume needs --format jsonl or csv"), array.stderr)
    }
}
#endif
