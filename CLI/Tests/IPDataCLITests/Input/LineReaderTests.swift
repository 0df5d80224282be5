// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// Reading lines: how long a line may be, and what a longer one does.
final class LineReaderTests: XCTestCase {
    private func lines(of url: URL, maximumLineLength: Int) async throws -> [String] {
        let reader = try LineReader.file(atPath: url.path, maximumLineLength: maximumLineLength)
        var lines: [String] = []
        while let line = try await reader.nextLine() { lines.append(line) }
        return lines
    }

    func testLinesAsLongAsTheLimitAreRead() async throws {
        let long = String(repeating: "x", count: 100)
        let url = try makeFile("\(long)\n\(long)\r\n\(long)")
        let lines = try await lines(of: url, maximumLineLength: 100)
        XCTAssertEqual(lines, [long, long, long])
    }

    func testALongerLineIsAUsageErrorThatNamesTheLine() async throws {
        let url = try makeFile("8.8.8.8\n1.1.1.1\r\n" + String(repeating: "x", count: 101) + "\n")
        let reader = try LineReader.file(atPath: url.path, maximumLineLength: 100)
        let first = try await reader.nextLine()
        let second = try await reader.nextLine()
        XCTAssertEqual([first, second], ["8.8.8.8", "1.1.1.1"])
        do {
            _ = try await reader.nextLine()
            XCTFail("a line of 101 bytes was read")
        } catch let error as CommandError {
            XCTAssertEqual(error.status, .usage)
            XCTAssertEqual(
                error.message,
                "line 3 of \(url.path) is longer than 100 bytes: expected one address or CSV row per line")
        }
    }

    func testInputWithoutLineEndsStopsAtTheDefaultLimit() async throws {
        // 3 MiB without a line end: read whole before, now refused once 1 MiB is exceeded.
        let url = try makeTemporaryDirectory().appendingPathComponent("zeros")
        try Data(count: 3 * 1_048_576).write(to: url)
        do {
            let lines = try await lines(of: url, maximumLineLength: LineReader.defaultMaximumLineLength)
            XCTFail("read \(lines.map(\.utf8.count)) bytes as lines")
        } catch let error as CommandError {
            XCTAssertEqual(
                error.message,
                "line 1 of \(url.path) is longer than 1 MiB: expected one address or CSV row per line")
        }
    }

    func testSizesAreWrittenAsPeopleReadThem() {
        XCTAssertEqual(LineReader.size(1_048_576), "1 MiB")
        XCTAssertEqual(LineReader.size(4096), "4 KiB")
        XCTAssertEqual(LineReader.size(100), "100 bytes")
    }
}
#endif
