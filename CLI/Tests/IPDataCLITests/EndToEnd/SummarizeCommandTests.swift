// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// `ipdata summarize`, run as a user would, against the local API server: addresses it looks up,
/// and records `ipdata bulk` wrote, which it reads without a key.
final class SummarizeCommandTests: CommandLineTestCase {
    private func summary(_ run: BuiltBinary.Run, file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any]
    {
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout, file: file,
            line: line)
    }

    func testAddressesAreLookedUpInBulkAndSummarized() throws {
        let addresses = (0..<250).map { "8.8.\($0 / 200).\($0 % 200 + 1)" } + ["8.8.0.1", "10.0.0.1"]
        let mark = accessLogMark()
        let run = try ipdata(
            ["summarize", "--format", "json"] + base, stdin: addresses.joined(separator: "\n") + "\n")
        let object = try summary(run)
        XCTAssertEqual(object["total"] as? Int, 252)
        XCTAssertEqual(object["unique"] as? Int, 251)
        XCTAssertEqual(object["private"] as? Int, 1)
        XCTAssertEqual(object["failed"] as? Int, 1, "the private address")
        let countries = try XCTUnwrap(object["countries"] as? [[String: Any]])
        XCTAssertEqual(countries.first?["count"] as? Int, 251)
        let posts = try accessEntries(since: mark, atLeast: 3).filter { $0.method == "POST" }
        XCTAssertEqual(posts.count, 3, "250 distinct public addresses in bulk requests of 100")
    }

    func testRecordsOfIPDataBulkNeedNoKeyAndNoRequest() throws {
        let bulk = try ipdata(["bulk", "-q"] + base, stdin: "8.8.8.8\n1.1.1.1\n10.0.0.1\n")
        let records = try makeFile(bulk.stdout, named: "records.jsonl")
        let mark = accessLogMark()
        let run = try ipdata(["summarize", "--format", "json", records.path], key: .absent)
        let object = try summary(run)
        XCTAssertEqual(object["total"] as? Int, 3)
        XCTAssertEqual(object["failed"] as? Int, 1, "the error record of the private address")
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0)
    }

    func testAnAddressWithoutAKeyIsOneUsageError() throws {
        let run = try ipdata(["summarize"], key: .absent, stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: no API key"), run.stderr)
    }

    func testADeadServerIsOneErrorLineAndExitStatusFive() throws {
        let run = try ipdata(["summarize", "--base-url", "https://127.0.0.1:9"], stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 5, "not a summary of addresses without an answer")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: 2 lookups failed: Network error: "), run.stderr)
    }

    func testARefusedKeyStopsTheRun() throws {
        let run = try ipdata(["summarize"] + base, key: .given("not-a-key"), stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual(run.stdout, "")
    }
}
#endif
