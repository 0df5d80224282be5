// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// Help, the version and usage errors, run as the built binary; they need no server.
final class HelpAndUsageTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    func testVersionIsTheLibrarysVersion() throws {
        for arguments in [["--version"], ["bulk", "--version"], ["8.8.8.8", "--version"]] {
            let run = try ipdata(arguments, key: .absent)
            XCTAssertEqual(run.status, 0)
            XCTAssertEqual(run.stdout, "ipdata \(IPDataClient.sdkVersion)\n")
            XCTAssertEqual(run.stderr, "")
        }
    }

    func testHelpGoesToStandardOutput() throws {
        let cases: [([String], String)] = [
            // The shared options may come before `help`, which leaves them alone.
            (["--sandbox", "help"], "\nUSAGE: ipdata [OPTIONS] [IP… | ASN]\n"),
            (["--help"], "\nUSAGE: ipdata [OPTIONS] [IP… | ASN]\n"),
            (["-h"], "\nUSAGE: ipdata [OPTIONS] [IP… | ASN]\n"),
            (["bulk", "--help"], "\nUSAGE: ipdata bulk [OPTIONS] [FILE… | -]\n"),
            (["init", "--help"], "\nUSAGE: ipdata init [OPTIONS] [KEY]\n"),
            (["--bogus", "--help"], "\nUSAGE: ipdata [OPTIONS] [IP… | ASN]\n"),
            (["help"], "\nUSAGE: ipdata [OPTIONS] [IP… | ASN]\n"),
            (["help", "bulk"], "\nUSAGE: ipdata bulk [OPTIONS] [FILE… | -]\n"),
            (["help", "init"], "\nUSAGE: ipdata init [OPTIONS] [KEY]\n"),
            (["help", "grep"], "\nUSAGE: ipdata grep [OPTIONS] [FILE… | -]\n"),
            (["grep", "--help"], "\nUSAGE: ipdata grep [OPTIONS] [FILE… | -]\n"),
            (["cache", "--help"], "\nUSAGE: ipdata cache info | clear\n"),
            (["help", "cache"], "\nUSAGE: ipdata cache info | clear\n"),
            // Wrapped to 80 columns, as help is when piped.
            (
                ["help", "help"],
                "\nUSAGE: ipdata help [bulk | grep | enrich | summarize | filter | cidr | cache |\n"
                    + "         init | help | completion | man | mcp]\n"
            ),
            (
                ["help", "--help"],
                "\nUSAGE: ipdata help [bulk | grep | enrich | summarize | filter | cidr | cache |\n"
                    + "         init | help | completion | man | mcp]\n"
            ),
        ]
        for (arguments, start) in cases {
            let run = try ipdata(arguments, key: .absent)
            XCTAssertEqual(run.status, 0, arguments.joined(separator: " "))
            // ArgumentParser's layout: an overview, then the usage, arguments and options.
            XCTAssertTrue(run.stdout.hasPrefix("OVERVIEW: "), run.stdout)
            XCTAssertTrue(run.stdout.contains(start), run.stdout)
            XCTAssertEqual(run.stderr, "")
        }
    }

    /// `ipdata --help` and `ipdata help` list every command, each with what it does.
    func testTheHelpListsEveryCommand() throws {
        for arguments in [["--help"], ["help"]] {
            let run = try ipdata(arguments, key: .absent)
            XCTAssertEqual(run.status, 0)
            let listed = run.stdoutLines.drop { $0 != "COMMANDS:" }.dropFirst().prefix { $0.hasPrefix("  ") }
            let commands = IPDataCommand.commands.map {
                ($0.configuration.commandName ?? "", $0.configuration.abstract)
            }
            XCTAssertEqual(listed.map { $0.split(separator: " ").first.map(String.init) }, commands.map { $0.0 })
            for (line, command) in zip(listed, commands) {
                XCTAssertTrue(line.hasSuffix("  " + command.1), line)
            }
        }
    }

    /// A mistyped command is a usage error naming the command meant, not a lookup of its name.
    func testAMistypedCommandIsAUsageErrorNamingTheCommandMeant() throws {
        let file = try makeFile("8.8.8.8\n", named: "ips.txt").path
        let cases: [([String], String)] = [
            (["sumarize", file], "there is no command sumarize: did you mean summarize? (see ipdata --help)"),
            (["bulkk", file], "there is no command bulkk: did you mean bulk? (see ipdata --help)"),
            (["--quiet", "grpe", file], "there is no command grpe: did you mean grep? (see ipdata --help)"),
            (["enrihc", file], "there is no command enrihc: did you mean enrich? (see ipdata --help)"),
            (["help", "sumarize"], "there is no command sumarize: did you mean summarize? (see ipdata help --help)"),
            (["--fomat", "csv", "8.8.8.8"], "unknown option --fomat: did you mean --format? (see ipdata --help)"),
        ]
        for (arguments, message) in cases {
            let run = try ipdata(arguments, key: .absent)
            XCTAssertEqual(run.status, 2, arguments.joined(separator: " "))
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderrLines, ["ipdata: " + message])
        }
    }

    /// Bulk prints JSON lines whatever the number of addresses, and its help says so.
    func testBulkHelpStatesItsOwnDefaultFormat() throws {
        let run = try ipdata(["help", "bulk"], key: .absent)
        let options = run.stdoutLines.drop { $0 != "OPTIONS:" }
        let format = try XCTUnwrap(options.firstIndex { $0.hasPrefix("  --format <FORMAT>") })
        let text = options[format...].prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        XCTAssertTrue(
            text.contains("json, jsonl, csv, tsv, table or markdown (default: jsonl, one JSON object per line)"), text)
        let one = try ipdata(["--sandbox", "bulk"], key: .absent, stdin: "8.8.8.8\n")
        XCTAssertEqual(one.stdoutLines.count, 1, "one address is one JSON line: \(one.stdout)")
    }

    func testUsageErrorsAreOneLineAndExitTwo() throws {
        let cases: [([String], String)] = [
            (["--bogus"], "unknown option --bogus (see ipdata --help)"),
            (["-fip,city", "8.8.8.8"], "option -f takes its value after a space: -f a,b,c (see ipdata --help)"),
            (
                ["bulk", "-fip,city", "ips.txt"],
                "option -f takes its value after a space: -f a,b,c (see ipdata bulk --help)"
            ),
            (["bulk", "-fip", "ip"], "option -f takes its value after a space: -f a,b,c (see ipdata bulk --help)"),
            (["bulk", "--field", "asn"], "unknown option --field: did you mean --fields? (see ipdata bulk --help)"),
            (["grep", "--eu", "x"], "unknown option --eu (see ipdata grep --help)"),
            (["--format", "xml"], "--format must be json, jsonl, csv, tsv, table or markdown (see ipdata --help)"),
            (["--fields"], "option --fields needs a value (a,b,c) (see ipdata --help)"),
            (["--eu", "--base-url", "https://x.test"], "use --eu or --base-url, not both (see ipdata --help)"),
            (
                ["bulk", "--concurrency", "0"],
                "--concurrency must be a whole number from 1 to 100 (see ipdata bulk --help)"
            ),
            (
                ["8.8.8.8", "--field", "asn", "--format", "csv"],
                "--field prints one value: leave out --fields and --format (see ipdata --help)"
            ),
            (["cache"], "cache takes one action: ipdata cache info | clear (see ipdata cache --help)"),
            (["cache", "empty"], "cache takes one action: ipdata cache info | clear (see ipdata cache --help)"),
            (["cache", "info", "--no-cache"], "unknown option --no-cache (see ipdata cache --help)"),
            (["bulk", "--dry-run", "--resume"], "use --dry-run or --resume, not both (see ipdata bulk --help)"),
            (["AS1", "AS2"], "look up one ASN at a time, and without IP addresses (see ipdata --help)"),
            (["8.8.8.8", "bulk"], "bulk is a command, not an address: ipdata bulk [OPTIONS] … (see ipdata --help)"),
            (
                ["help", "bogus"],
                "there is no command bogus: ipdata help [bulk | grep | enrich | summarize | filter | cidr | cache | init | help | completion | man | mcp] (see ipdata help --help)"
            ),
            (
                ["help", "bulk", "init"],
                "help takes one command name: ipdata help [bulk | grep | enrich | summarize | filter | cidr | cache | init | help | completion | man | mcp] (see ipdata help --help)"
            ),
        ]
        for (arguments, message) in cases {
            let run = try ipdata(arguments)
            XCTAssertEqual(run.status, 2, arguments.joined(separator: " "))
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderrLines, ["ipdata: " + message])
        }
    }
}
#endif
