// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// Reading a command line once: the command word (`bulk`, `init`, or a lookup), its options,
/// and what cannot be understood.
final class IPDataCommandTests: XCTestCase {
    private func read(_ arguments: String...) -> (IPDataCommand.Command, [String]) {
        let invocation = IPDataCommand.read(arguments)
        return (invocation.command, invocation.parsed.positionals)
    }

    private func problems(_ arguments: String...) -> [String] {
        IPDataCommand.read(arguments).parsed.problems.map(\.message)
    }

    func testNoCommandWordIsALookup() {
        XCTAssertTrue(read() == (.lookup, []))
        XCTAssertTrue(read("8.8.8.8", "--eu") == (.lookup, ["8.8.8.8"]))
    }

    func testTheCommandWordIsTakenOut() {
        XCTAssertTrue(read("bulk", "ips.txt") == (.bulk, ["ips.txt"]))
        XCTAssertTrue(read("init", "key") == (.`init`, ["key"]))
        XCTAssertTrue(read("help", "bulk") == (.help, ["bulk"]))
    }

    func testOptionsMayComeBeforeTheCommandWord() {
        XCTAssertTrue(read("--eu", "bulk", "ips.txt") == (.bulk, ["ips.txt"]))
        XCTAssertTrue(read("--base-url", "https://x.test", "bulk") == (.bulk, []))
        let invocation = IPDataCommand.read(["--output=out", "-f", "ip", "bulk"])
        XCTAssertEqual(invocation.command, .bulk)
        XCTAssertEqual(invocation.parsed.value("output"), "out")
        XCTAssertEqual(invocation.parsed.value("fields"), "ip")
    }

    func testAnOptionsValueIsNotACommandWord() {
        XCTAssertTrue(read("--output", "bulk", "8.8.8.8") == (.lookup, ["8.8.8.8"]))
        XCTAssertTrue(read("-f", "init") == (.lookup, []))
    }

    func testACommandWordAfterAnAddressOrDoubleDashIsNot() {
        XCTAssertTrue(read("8.8.8.8", "bulk") == (.lookup, ["8.8.8.8", "bulk"]))
        XCTAssertTrue(read("--", "bulk") == (.lookup, ["bulk"]))
    }

    func testAnOptionTheCommandDoesNotTakeIsAProblem() {
        XCTAssertEqual(problems("init", "--format", "json"), ["unknown option --format"])
        XCTAssertEqual(problems("bulk", "--field", "asn"), ["unknown option --field"])
        XCTAssertEqual(problems("--field", "asn", "8.8.8.8"), [])
    }

    /// `--help` and `--version` are options like any other, found by the one reading, and they
    /// win over a problem elsewhere on the line; after `--` they are addresses.
    func testHelpAndVersionAreReadAsOptions() {
        XCTAssertTrue(IPDataCommand.read(["--bogus", "--help"]).parsed.has("help"))
        XCTAssertTrue(IPDataCommand.read(["bulk", "-h"]).parsed.has("help"))
        XCTAssertTrue(IPDataCommand.read(["init", "--version"]).parsed.has("version"))
        XCTAssertFalse(IPDataCommand.read(["--", "--help"]).parsed.has("help"))
        XCTAssertFalse(IPDataCommand.read(["--fields=--help"]).parsed.has("help"))
        // A known one-letter option is not taken as the value of the option before it.
        XCTAssertTrue(IPDataCommand.read(["--fields", "-h"]).parsed.has("help"))
    }

    /// Every list of formats is derived from the formats themselves.
    func testFormatListsComeFromTheFormats() {
        XCTAssertEqual(OutputFormat.names, "json, jsonl, csv or table")
        XCTAssertTrue(CommonOptions.format.help.hasPrefix(OutputFormat.names))
        XCTAssertThrowsError(try OutputFormat(parsing: "xml")) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--format must be \(OutputFormat.names)")
        }
    }
}
#endif
