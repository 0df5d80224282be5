// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// An address that comes again in the input is sent once: its later lines repeat the answer.
final class DuplicateAddressTests: CommandLineTestCase {
    func testEachDistinctAddressIsSentOnceAndWrittenForEveryLine() throws {
        // 100 distinct addresses, each on 10 lines spread over 1,000: one bulk request, not ten.
        let distinct = (0..<100).map { "9.1.0.\($0)" }
        let lines = (0..<1000).map { distinct[($0 * 37) % 100] }
        let mark = accessLogMark()
        let run = try ipdata(["bulk", "-f", "ip,country_code"] + base, stdin: lines.joined(separator: "\n"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            try objects(run).map { $0["ip"] }, lines.map(JSONValue.string), "a record for every line, in order")
        XCTAssertTrue(try objects(run).allSatisfy { $0["country_code"] == .string("US") })
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 1).filter { $0.method == "POST" }.count, 1)
        XCTAssertTrue(run.stderr.contains("1000 records, 0 failed, 1 request sent"), run.stderr)
    }

    func testTheSameAddressWrittenAnotherWayIsTheSameAddress() throws {
        let run = try ipdata(
            ["bulk", "-f", "ip"] + base, stdin: "2001:4860:4860::8888\n2001:4860:4860:0:0:0:0:8888\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try objects(run).count, 2)
        XCTAssertTrue(run.stderr.contains("1 request sent"), run.stderr)
    }

    func testARejectedAddressIsRejectedOnEveryLineItComesOn() throws {
        let run = try ipdata(["bulk", "-f", "ip"] + base, stdin: "10.0.0.1\n8.8.8.8\n10.0.0.1\n")
        XCTAssertEqual(run.status, 1, run.stderr)
        let records = try objects(run)
        XCTAssertEqual(records.map { $0["ip"] }, ["10.0.0.1", "8.8.8.8", "10.0.0.1"].map(JSONValue.string))
        XCTAssertNotNil(records[0]["error"])
        XCTAssertEqual(records[0], records[2])
    }
}
#endif
