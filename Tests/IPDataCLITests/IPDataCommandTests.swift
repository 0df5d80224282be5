// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// Finding the command word: `bulk`, `init`, or a lookup.
final class IPDataCommandTests: XCTestCase {
    private func split(_ arguments: String...) -> (IPDataCommand.Command, [String]) {
        IPDataCommand.split(arguments)
    }

    func testNoCommandWordIsALookup() {
        XCTAssertTrue(split() == (.lookup, []))
        XCTAssertTrue(split("8.8.8.8", "--eu") == (.lookup, ["8.8.8.8", "--eu"]))
    }

    func testTheCommandWordIsTakenOut() {
        XCTAssertTrue(split("bulk", "ips.txt") == (.bulk, ["ips.txt"]))
        XCTAssertTrue(split("init", "key") == (.`init`, ["key"]))
    }

    func testOptionsMayComeBeforeTheCommandWord() {
        XCTAssertTrue(split("--eu", "bulk", "ips.txt") == (.bulk, ["--eu", "ips.txt"]))
        XCTAssertTrue(split("--base-url", "https://x.test", "bulk") == (.bulk, ["--base-url", "https://x.test"]))
        XCTAssertTrue(split("--output=out", "-f", "ip", "bulk") == (.bulk, ["--output=out", "-f", "ip"]))
    }

    func testAnOptionsValueIsNotACommandWord() {
        XCTAssertTrue(split("--output", "bulk", "8.8.8.8") == (.lookup, ["--output", "bulk", "8.8.8.8"]))
        XCTAssertTrue(split("-f", "init") == (.lookup, ["-f", "init"]))
    }

    func testACommandWordAfterAnAddressOrDoubleDashIsNot() {
        XCTAssertTrue(split("8.8.8.8", "bulk") == (.lookup, ["8.8.8.8", "bulk"]))
        XCTAssertTrue(split("--", "bulk") == (.lookup, ["--", "bulk"]))
    }
}
#endif
