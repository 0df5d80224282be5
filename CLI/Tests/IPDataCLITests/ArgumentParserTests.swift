// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// The command-line parser on its own, with a made-up command's options.
final class ArgumentParserTests: XCTestCase {
    private let parser = ArgumentParser(options: [
        OptionSpec("fields", short: "f", value: "a,b,c", help: "fields"),
        OptionSpec("output", value: "FILE", help: "file"),
        OptionSpec("api-key", value: "KEY", help: "key"),
        OptionSpec("eu", help: "EU"),
        OptionSpec("help", short: "h", help: "help"),
    ])

    private func parse(_ arguments: String...) throws -> ParsedArguments {
        try parser.parse(arguments)
    }

    private func assertUsageError(_ arguments: [String], _ message: String, line: UInt = #line) {
        XCTAssertThrowsError(try parser.parse(arguments), line: line) { error in
            XCTAssertEqual((error as? UsageError)?.message, message, line: line)
        }
    }

    func testNothingParsesToNothing() throws {
        XCTAssertEqual(try parse(), ParsedArguments())
    }

    func testALongFlag() throws {
        let parsed = try parse("--eu")
        XCTAssertTrue(parsed.has("eu"))
        XCTAssertFalse(parsed.has("help"))
    }

    func testAShortFlag() throws {
        XCTAssertTrue(try parse("-h").has("help"))
    }

    func testALongOptionTakesTheNextArgumentAsItsValue() throws {
        let parsed = try parse("--output", "out.json")
        XCTAssertEqual(parsed.value("output"), "out.json")
        XCTAssertEqual(parsed.positionals, [])
    }

    func testALongOptionTakesAValueAfterAnEqualsSign() throws {
        XCTAssertEqual(try parse("--output=out.json").value("output"), "out.json")
        XCTAssertEqual(try parse("--fields=ip,asn.name").value("fields"), "ip,asn.name")
        XCTAssertEqual(try parse("--output=a=b").value("output"), "a=b")
        XCTAssertEqual(try parse("--fields=").value("fields"), "")
    }

    func testAShortOptionTakesItsValueSeparateOrAttached() throws {
        XCTAssertEqual(try parse("-f", "ip,city").value("fields"), "ip,city")
        XCTAssertEqual(try parse("-fip,city").value("fields"), "ip,city")
        XCTAssertEqual(try parse("-f=ip,city").value("fields"), "ip,city")
    }

    func testARepeatedOptionKeepsEveryValueAndTheLastWins() throws {
        let parsed = try parse("-f", "ip", "--fields", "city", "--output", "a", "--output", "b")
        XCTAssertEqual(parsed.allValues("fields"), ["ip", "city"])
        XCTAssertEqual(parsed.value("output"), "b")
    }

    func testAValueMayStartWithOneDash() throws {
        XCTAssertEqual(try parse("--output", "-").value("output"), "-")
        XCTAssertEqual(try parse("--output", "-x").value("output"), "-x")
    }

    func testPositionalArgumentsKeepTheirOrderAroundOptions() throws {
        let parsed = try parse("8.8.8.8", "--eu", "1.1.1.1", "-f", "ip", "::1")
        XCTAssertEqual(parsed.positionals, ["8.8.8.8", "1.1.1.1", "::1"])
        XCTAssertTrue(parsed.has("eu"))
    }

    func testASingleDashIsAPositionalArgument() throws {
        XCTAssertEqual(try parse("-", "--eu").positionals, ["-"])
    }

    func testADoubleDashEndsTheOptions() throws {
        let parsed = try parse("--eu", "--", "--help", "-f", "x")
        XCTAssertTrue(parsed.has("eu"))
        XCTAssertFalse(parsed.has("help"))
        XCTAssertEqual(parsed.positionals, ["--help", "-f", "x"])
        XCTAssertEqual(parsed.value("fields"), nil)
    }

    func testAnUnknownLongOptionIsAnError() {
        assertUsageError(["--bogus"], "unknown option --bogus")
    }

    func testAnUnknownOptionIsNamedWithoutItsValue() {
        assertUsageError(["--api-kee=SECRET-VALUE"], "unknown option --api-kee: did you mean --api-key?")
        assertUsageError(["-kSECRET-VALUE"], "unknown option -k")
    }

    func testAnUnknownShortOptionIsAnError() {
        assertUsageError(["-x"], "unknown option -x")
    }

    func testAMissingValueAtTheEndIsAnError() {
        assertUsageError(["--output"], "option --output needs a value (FILE)")
        assertUsageError(["-f"], "option --fields needs a value (a,b,c)")
    }

    func testAnOptionIsNotTakenAsTheValueOfAnother() {
        assertUsageError(["--fields", "--eu"], "option --fields needs a value (a,b,c)")
        assertUsageError(["--api-key", "--"], "option --api-key needs a value (KEY)")
    }

    func testAFlagTakesNoValue() {
        assertUsageError(["--eu=yes"], "option --eu takes no value")
        assertUsageError(["-hx"], "option -h takes no value")
    }

    func testHelpListsEveryOptionAligned() {
        let help = HelpText(
            usage: ["tool [OPTIONS] FILE", "tool other"], summary: "Does things.", options: parser.options,
            footer: "The end.")
        XCTAssertEqual(
            help.rendered,
            """
            usage: tool [OPTIONS] FILE
                   tool other

            Does things.

            options:
              -f, --fields a,b,c  fields
                  --output FILE   file
                  --api-key KEY   key
                  --eu            EU
              -h, --help          help

            The end.

            """)
    }
}
#endif
