// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import ArgumentParser
import XCTest

@testable import ipdata_cli

/// Reading a command line with ArgumentParser, as `ipdata` does: the command (`bulk`, `init`, or a
/// lookup by default), its options and arguments, and the line printed for what cannot be
/// understood. (These moved here from the tests of the hand-written parser it replaced.)
final class CommandLineTests: XCTestCase {
    private func parse(_ arguments: String...) throws -> any ParsableCommand {
        try IPDataCommand.parseAsRoot(arguments)
    }

    private func lookup(_ arguments: String...) throws -> LookupCommand {
        try XCTUnwrap(try IPDataCommand.parseAsRoot(arguments) as? LookupCommand)
    }

    private func bulk(_ arguments: String...) throws -> BulkCommand {
        try XCTUnwrap(try IPDataCommand.parseAsRoot(arguments) as? BulkCommand)
    }

    /// The line `ipdata` prints for `arguments`, without `ipdata: `; nil when they parse.
    private func problem(_ arguments: String...) -> String? {
        do {
            _ = try IPDataCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return CommandLineProblem(error).line
        }
    }

    func testNoCommandWordIsALookup() throws {
        XCTAssertEqual(try lookup().targets, [])
        XCTAssertEqual(try lookup("8.8.8.8", "--eu").targets, ["8.8.8.8"])
        XCTAssertTrue(try lookup("8.8.8.8", "--eu").endpoint.eu)
    }

    func testTheCommandWordIsTakenOut() throws {
        XCTAssertEqual(try bulk("bulk", "ips.txt").files, ["ips.txt"])
        XCTAssertTrue(try parse("init", "key") is InitCommand)
        XCTAssertTrue(try parse("help", "bulk") is HelpCommand)
    }

    /// The shared options (`ClientOptions`, `EndpointOptions`) may come before the command word.
    func testSharedOptionsMayComeBeforeTheCommandWord() throws {
        XCTAssertTrue(try bulk("--eu", "bulk", "ips.txt").endpoint.eu)
        XCTAssertEqual(try bulk("--eu", "bulk", "ips.txt").files, ["ips.txt"])
        XCTAssertEqual(try bulk("--base-url", "https://x.test", "bulk").endpoint.baseURL, "https://x.test")
        XCTAssertTrue(try bulk("--sandbox", "-q", "bulk").client.sandbox)
        XCTAssertTrue(try bulk("--sandbox", "-q", "bulk").client.quiet)
    }

    /// What the lookup says of a command word among its arguments, which it checks as it starts.
    private func targetProblem(_ arguments: String...) throws -> String? {
        let parsed = try XCTUnwrap(try IPDataCommand.parseAsRoot(arguments) as? LookupCommand)
        do {
            _ = try LookupCommand.Target(arguments: parsed.targets)
            return nil
        } catch let error as UsageError {
            return error.message
        }
    }

    /// A command's own options come after its word; before it they are the lookup's, an unknown
    /// option or one that makes the word an address (see CHANGELOG).
    func testACommandsOwnOptionsComeAfterItsWord() throws {
        XCTAssertEqual(problem("--column", "ip", "bulk"), "unknown option --column (see ipdata --help)")
        XCTAssertEqual(
            try targetProblem("--output=out", "bulk"), "bulk is a command, not an address: ipdata bulk [OPTIONS] …")
    }

    func testAnOptionsValueIsNotACommandWord() throws {
        let parsed = try lookup("--output", "bulk", "8.8.8.8")
        XCTAssertEqual(parsed.output, "bulk")
        XCTAssertEqual(parsed.targets, ["8.8.8.8"])
    }

    func testACommandWordAfterAnAddressOrDoubleDashIsNot() throws {
        XCTAssertEqual(try lookup("8.8.8.8", "bulk").targets, ["8.8.8.8", "bulk"])
        XCTAssertEqual(
            try targetProblem("8.8.8.8", "bulk"), "bulk is a command, not an address: ipdata bulk [OPTIONS] …")
        XCTAssertEqual(try lookup("--", "bulk").targets, ["bulk"])
    }

    func testTheDefaultCommandHasAName() throws {
        XCTAssertEqual(try XCTUnwrap(try parse("lookup", "8.8.8.8") as? LookupCommand).targets, ["8.8.8.8"])
    }

    func testALongOptionTakesTheNextArgumentOrOneAfterAnEqualsSign() throws {
        XCTAssertEqual(try lookup("--output", "out.json").output, "out.json")
        XCTAssertEqual(try lookup("--output", "out.json").targets, [])
        XCTAssertEqual(try lookup("--output=out.json").output, "out.json")
        XCTAssertEqual(try lookup("--output=a=b").output, "a=b")
        XCTAssertEqual(try lookup("--fields=ip,asn.name").fields, ["ip,asn.name"])
    }

    /// ArgumentParser takes a one-letter option's value after a space only (see CHANGELOG); the
    /// line says so, without the value.
    func testAShortOptionTakesItsValueAfterASpace() throws {
        XCTAssertEqual(try lookup("-f", "ip,city").fields, ["ip,city"])
        XCTAssertEqual(
            problem("-fip,city"), "option -f takes its value after a space: -f a,b,c (see ipdata --help)")
    }

    func testARepeatedOptionKeepsEveryValueAndTheLastWins() throws {
        let parsed = try lookup("-f", "ip", "--fields", "city", "--output", "a", "--output", "b")
        XCTAssertEqual(parsed.fields, ["ip", "city"])
        XCTAssertEqual(parsed.output, "b")
    }

    func testAValueMayBeOneDash() throws {
        XCTAssertEqual(try lookup("--output", "-").output, "-")
    }

    func testPositionalArgumentsKeepTheirOrderAroundOptions() throws {
        let parsed = try lookup("8.8.8.8", "--eu", "1.1.1.1", "-f", "ip", "::1")
        XCTAssertEqual(parsed.targets, ["8.8.8.8", "1.1.1.1", "::1"])
        XCTAssertTrue(parsed.endpoint.eu)
    }

    func testASingleDashIsAPositionalArgument() throws {
        XCTAssertEqual(try bulk("bulk", "-", "--eu").files, ["-"])
    }

    func testADoubleDashEndsTheOptions() throws {
        let parsed = try bulk("bulk", "--eu", "--", "--help", "-f", "x")
        XCTAssertTrue(parsed.endpoint.eu)
        XCTAssertEqual(parsed.files, ["--help", "-f", "x"])
        XCTAssertEqual(parsed.fields, [])
    }

    func testAnUnknownOptionIsNamedWithoutItsValue() {
        XCTAssertEqual(problem("--bogus"), "unknown option --bogus (see ipdata --help)")
        XCTAssertEqual(
            problem("--api-kee=SECRET-VALUE"), "unknown option --api-kee: did you mean --api-key? (see ipdata --help)")
        XCTAssertEqual(problem("-kSECRET-VALUE"), "unknown option -k (see ipdata --help)")
        XCTAssertEqual(problem("-x"), "unknown option -x (see ipdata --help)")
    }

    func testAMissingValueIsAnError() {
        XCTAssertEqual(problem("--output"), "option --output needs a value (FILE) (see ipdata --help)")
        XCTAssertEqual(problem("bulk", "-f"), "option -f needs a value (a,b,c) (see ipdata bulk --help)")
        XCTAssertEqual(problem("--fields", "--eu"), "option --fields needs a value (a,b,c) (see ipdata --help)")
    }

    func testAFlagTakesNoValue() {
        XCTAssertEqual(problem("--eu=yes"), "option --eu takes no value (see ipdata --help)")
    }

    /// An option the command does not take is a problem of the command line, as an unknown one is.
    func testAnOptionTheCommandDoesNotTakeIsAProblem() {
        XCTAssertEqual(problem("init", "--format", "json"), "unknown option --format (see ipdata init --help)")
        XCTAssertEqual(problem("grep", "--sandbox"), "unknown option --sandbox (see ipdata grep --help)")
        XCTAssertEqual(problem("--sandbox", "cache", "info"), "unknown option --sandbox (see ipdata cache --help)")
        XCTAssertNil(problem("--field", "asn", "8.8.8.8"))
    }

    /// ArgumentParser's wording becomes the tool's; the tool's own is kept.
    func testMessagesAreInTheToolsWords() {
        XCTAssertEqual(CommandLineProblem.message("Unknown option '--x'"), "unknown option --x")
        XCTAssertEqual(CommandLineProblem.message("Missing value for '--top <N>'"), "option --top needs a value (N)")
        XCTAssertEqual(CommandLineProblem.message("2 unexpected arguments: 'a', 'b'"), "too many arguments")
        XCTAssertEqual(CommandLineProblem.message("use -4 or -6, not both"), "use -4 or -6, not both")
        XCTAssertEqual(CommandLineProblem.helpCommand(in: "  See 'ipdata lookup --help' for more"), "ipdata --help")
        XCTAssertEqual(CommandLineProblem.helpCommand(in: "  See 'ipdata bulk --help' for more"), "ipdata bulk --help")
    }

    /// Every list of formats is derived from the formats themselves.
    func testFormatListsComeFromTheFormats() {
        XCTAssertEqual(OutputFormat.names, "json, jsonl, csv, tsv, table or markdown")
        XCTAssertTrue(CommonOptions.formatHelp.hasPrefix(OutputFormat.names))
        XCTAssertThrowsError(try OutputFormat(parsing: "xml")) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--format must be \(OutputFormat.names)")
        }
    }
}
#endif
