// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import IPData
import XCTest

@testable import ipdata_cli

/// What each command accepts, checked before anything is sent: the common options, the lookup
/// targets, and the options of `bulk`.
final class CommandOptionsTests: XCTestCase {
    /// The common options of a lookup's command line, read by ArgumentParser and checked.
    private func common(_ arguments: String...) throws -> CommonOptions {
        guard let lookup = try IPDataCommand.parseAsRoot(arguments) as? LookupCommand else {
            throw UsageError("not a lookup: \(arguments)")
        }
        return try lookup.commonOptions()
    }

    /// Checks that `body` throws `message`: as a `UsageError`, or as the command line's problem.
    private func assertUsageError<T>(_ body: @autoclosure () throws -> T, _ message: String, line: UInt = #line) {
        XCTAssertThrowsError(try body(), line: line) { error in
            XCTAssertEqual((error as? UsageError)?.message ?? CommandLineProblem(error).message, message, line: line)
        }
    }

    func testTheDefaultsAreTheGlobalEndpointAndNoSelection() throws {
        let options = try common()
        XCTAssertEqual(options.baseURL, IPDataClient.defaultBaseURL)
        XCTAssertNil(options.selection)
        XCTAssertNil(options.format)
        XCTAssertNil(options.outputPath)
        XCTAssertNil(options.apiKeyOption)
    }

    func testEUSelectsTheEUEndpoint() throws {
        XCTAssertEqual(try common("--eu").baseURL, IPDataClient.euBaseURL)
    }

    func testBaseURLIsUsedAsGiven() throws {
        XCTAssertEqual(
            try common("--base-url", "https://127.0.0.1:8443/p").baseURL.absoluteString, "https://127.0.0.1:8443/p")
    }

    func testEUAndBaseURLTogetherAreAnError() {
        assertUsageError(try common("--eu", "--base-url", "https://x.test"), "use --eu or --base-url, not both")
    }

    func testABaseURLMustBeHTTPWithAHostAndNoQuery() {
        let message = "--base-url must be an http or https URL without a query, such as https://api.ipdata.co"
        for url in ["ftp://x.test", "api.ipdata.co", "https://", "https://x.test/?api-key=1", "not a url"] {
            assertUsageError(try common("--base-url", url), message)
        }
    }

    func testAPlainHTTPBaseURLIsForThisMachineOnly() throws {
        XCTAssertEqual(try common("--base-url", "http://127.0.0.1:8080").baseURL.host, "127.0.0.1")
        XCTAssertEqual(try common("--base-url", "http://localhost:8080/p").baseURL.host, "localhost")
        let message =
            "--base-url with plain http would send the API key in clear text: use https "
            + "(http is for this machine only: localhost, 127.0.0.1, [::1])"
        for url in ["http://api.ipdata.co", "http://192.168.1.20:8080"] {
            assertUsageError(try common("--base-url", url), message)
        }
    }

    /// Text that Apple's newer `URL(string:)` repairs (percent-encoding a space, converting a
    /// non-ASCII host) and Linux's refuses is refused on every platform; so are a fragment and
    /// credentials in the URL.
    func testABaseURLIsReadTheSameOnEveryPlatform() {
        let message = "--base-url must be an http or https URL without a query, such as https://api.ipdata.co"
        for url in [
            "https://exa mple.test", "https://x.test/a b", " https://x.test", "https://x.test\t", "https://bücher.test",
            "https://x.test/\u{7F}", "https://x.test/#top", "https://user:secret@x.test", "https://user@x.test",
        ] {
            assertUsageError(try common("--base-url", url), message)
        }
    }

    func testFormatIsOneOfSix() throws {
        XCTAssertEqual(try common("--format", "csv").format, .csv)
        XCTAssertEqual(try common("--format=JSONL").format, .jsonl)
        XCTAssertEqual(try common("--format", "table").format, .table)
        XCTAssertEqual(try common("--format", "tsv").format, .tsv)
        XCTAssertEqual(try common("--format", "md").format, .markdown)
        assertUsageError(
            try common("--format", "xml"), "--format must be json, jsonl, csv, tsv, table or markdown")
    }

    func testOutputAndAPIKeyAreKept() throws {
        let options = try common("--output", "out.csv", "--api-key", "k")
        XCTAssertEqual(options.outputPath, "out.csv")
        XCTAssertEqual(options.apiKeyOption, "k")
        // ArgumentParser reads `--output=` as a missing value.
        assertUsageError(try common("--output="), "option --output needs a value (FILE)")
    }

    func testFieldsFromEveryOptionAreCombined() throws {
        XCTAssertEqual(
            try common("-f", "ip,asn.name", "--fields", "city").selection?.paths, ["ip", "asn.name", "city"])
    }

    func testNoArgumentsLookUpTheOwnAddress() throws {
        XCTAssertEqual(try LookupCommand.Target(arguments: []), .ownAddress)
    }

    func testNoArgumentsAndAPipedStandardInputLookUpItsAddresses() throws {
        XCTAssertEqual(try LookupCommand.Target(arguments: [], readsStandardInput: true), .standardInput)
        XCTAssertEqual(
            try LookupCommand.Target(arguments: ["8.8.8.8"], readsStandardInput: true), .addresses(["8.8.8.8"]))
        XCTAssertEqual(try LookupCommand.Target(arguments: ["AS15169"], readsStandardInput: true), .asn("AS15169"))
    }

    func testAddressesAreLookedUpAsGiven() throws {
        XCTAssertEqual(try LookupCommand.Target(arguments: ["8.8.8.8"]), .addresses(["8.8.8.8"]))
        XCTAssertEqual(try LookupCommand.Target(arguments: ["8.8.8.8", "::1"]), .addresses(["8.8.8.8", "::1"]))
    }

    func testASAndDigitsIsAnASN() throws {
        XCTAssertEqual(try LookupCommand.Target(arguments: ["AS15169"]), .asn("AS15169"))
        XCTAssertEqual(try LookupCommand.Target(arguments: ["as15169"]), .asn("as15169"))
        // Anything else is looked up as an address, and the API says it is none.
        XCTAssertEqual(try LookupCommand.Target(arguments: ["ASN"]), .addresses(["ASN"]))
        XCTAssertEqual(try LookupCommand.Target(arguments: ["AS"]), .addresses(["AS"]))
    }

    func testOneASNAtATime() {
        let message = "look up one ASN at a time, and without IP addresses"
        assertUsageError(try LookupCommand.Target(arguments: ["AS1", "AS2"]), message)
        assertUsageError(try LookupCommand.Target(arguments: ["8.8.8.8", "AS15169"]), message)
    }

    func testACommandWordAfterAnOptionIsAUsageError() {
        assertUsageError(
            try LookupCommand.Target(arguments: ["bulk", "ips.txt"]),
            "bulk is a command, not an address: ipdata bulk [OPTIONS] …"
        )
        assertUsageError(
            try LookupCommand.Target(arguments: ["8.8.8.8", "help"]),
            "help is a command, not an address: ipdata help [COMMAND]"
        )
    }

    func testConcurrencyIsAWholeNumberFromOneToAHundred() throws {
        XCTAssertEqual(try BulkCommand.concurrency(parsing: "1"), 1)
        XCTAssertEqual(try BulkCommand.concurrency(parsing: "100"), 100)
        for text in ["0", "101", "-1", "four", ""] {
            assertUsageError(
                try BulkCommand.concurrency(parsing: text), "--concurrency must be a whole number from 1 to 100")
        }
    }

    func testAColumnIsANumberFromOneOrAName() throws {
        XCTAssertEqual(try ColumnSelection(parsing: "1"), .index(0))
        XCTAssertEqual(try ColumnSelection(parsing: "3"), .index(2))
        XCTAssertEqual(try ColumnSelection(parsing: "ip_address"), .name("ip_address"))
        assertUsageError(try ColumnSelection(parsing: "0"), "--column counts from 1: use 1 for the first column")
        assertUsageError(try ColumnSelection(parsing: " "), "--column needs a column name or number")
    }

    /// The options of each command, as its help lists them.
    static let optionsOfCommands: [(command: any ToolCommand.Type, options: [String])] = [
        (LookupCommand.self, ["fields", "field", "dry-run", "format", "output"] + sharedOptions),
        (
            BulkCommand.self,
            [
                "column", "concurrency", "no-progress", "max-addresses", "resume", "dry-run", "fields", "format",
                "output", "where", "blocklist", "set-name",
            ]
                + sharedOptions
        ),
        (GrepCommand.self, ["only-matching", "ipv4", "ipv6", "public", "unique", "cidrs"]),
        (EnrichCommand.self, ["as", "column", "key", "fields", "dry-run", "output"] + sharedOptions),
        (SummarizeCommand.self, ["top", "format", "dry-run"] + sharedOptions),
        (FilterCommand.self, ["where", "invert-match"] + sharedOptions),
        // Its commands' options: CIDRHelpTests.
        (CIDRCommand.self, []),
        (CacheCommand.self, []), (InitCommand.self, ["eu", "base-url"]), (HelpCommand.self, []),
        (CompletionCommand.self, []), (ManualCommand.self, []), (MCPCommand.self, ["max-requests"] + sharedOptions),
    ]

    /// The options every lookup command shares, which may come before the command word.
    static let sharedOptions = [
        "eu", "base-url", "api-key", "sandbox", "retries", "resend-bulk", "timeout", "no-cache", "quiet", "verbose",
    ]

    func testEveryCommandsHelpNamesEachOfItsOptions() {
        XCTAssertEqual(
            Self.optionsOfCommands.map { "\($0.command)" }, IPDataCommand.configuration.subcommands.map { "\($0)" })
        for (command, options) in Self.optionsOfCommands {
            let help = IPDataCommand.helpMessage(for: command).components(separatedBy: "\nOPTIONS:\n").last ?? ""
            for option in options + ["help"] {
                XCTAssertTrue(help.contains("--\(option)"), "\(option) in \(command)")
            }
            // The shared options a command does not take are not in its help.
            for option in Self.sharedOptions where !options.contains(option) {
                XCTAssertFalse(help.contains("--\(option) "), "\(option) in \(command)")
            }
        }
        XCTAssertTrue(IPDataCommand.toolHelp.contains("USAGE: ipdata [OPTIONS] [IP… | ASN]\n"))
        XCTAssertTrue(
            IPDataCommand.helpMessage(for: BulkCommand.self).contains("USAGE: ipdata bulk [OPTIONS] [FILE… | -]\n"))
        XCTAssertTrue(IPDataCommand.helpMessage(for: InitCommand.self).contains("USAGE: ipdata init [OPTIONS] [KEY]\n"))
    }

    /// The lookup, bulk, enrich and summarize take every shared option, with its short form.
    func testTheLookupCommandsShareTheCommonOptions() throws {
        for arguments in [[], ["bulk"], ["enrich", "-"], ["summarize"]] {
            let line = arguments + ["--eu", "--api-key", "k", "--retries", "2", "--timeout", "9", "--no-cache", "-q"]
            XCTAssertNoThrow(try IPDataCommand.parseAsRoot(line), "\(arguments)")
        }
        XCTAssertTrue(IPDataCommand.helpMessage(for: BulkCommand.self).contains("-q, --quiet"))
    }
}
#endif
