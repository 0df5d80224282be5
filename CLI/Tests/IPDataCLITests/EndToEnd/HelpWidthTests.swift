// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

@testable import ipdata_cli

/// `--help`, `ipdata help` and the manual fit the terminal's width (`COLUMNS` here; 80 when
/// piped): no line wider than it but one that is a single unbreakable word, measured by Python.
final class HelpWidthTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    /// Every command line that prints help: `--help` and `help` for each command and subcommand.
    private var helpLines: [[String]] {
        var words = [[]] + IPDataCommand.commands.map { [$0.configuration.commandName ?? ""] }
        for command in IPDataCommand.commands {
            for subcommand in command.configuration.subcommands {
                words.append([command.configuration.commandName ?? "", subcommand.configuration.commandName ?? ""])
            }
        }
        return words.flatMap { [$0 + ["--help"], ["help"] + $0] }
    }

    /// What Python finds wrong in `texts` at `width`: the lines wider than it that are more than
    /// one word, and the widest line of all.
    private func overlong(_ texts: [String: String], width: Int) throws -> (problems: [String], widest: Int) {
        let script = #"""
            import json, sys, unicodedata
            width = int(sys.argv[1])
            def columns(text):
                return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
                           for c in text)
            problems, widest = [], 0
            for name, text in json.load(sys.stdin).items():
                for line in text.split("\n"):
                    widest = max(widest, columns(line))
                    if columns(line) > width and len(line.split()) > 1:
                        problems.append(f"{name}: {columns(line)}: {line}")
            print(json.dumps({"problems": problems, "widest": widest}))
            """#
        let input = JSONValue.object(texts.mapValues(JSONValue.string)).jsonText()
        let output = try ToolRun.output("python3", ["-c", script, String(width)], stdin: Data(input.utf8))
        guard case .object(let result) = try JSONParser.parse(output), case .array(let problems)? = result["problems"],
            case .integer(let widest)? = result["widest"]
        else { throw XCTSkip("unreadable: \(String(decoding: output, as: UTF8.self))") }
        return (problems.compactMap { if case .string(let text) = $0 { text } else { nil } }, widest)
    }

    func testHelpFitsCOLUMNS() throws {
        for width in [60, 100] {
            var texts: [String: String] = [:]
            for arguments in helpLines {
                let run = try ipdata(arguments, key: .absent, extra: ["COLUMNS": String(width)])
                XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
                texts[arguments.joined(separator: " ")] = run.stdout
            }
            let (problems, widest) = try overlong(texts, width: width)
            XCTAssertEqual(problems, [], "\(width)")
            // It follows the width rather than staying at 80.
            XCTAssertGreaterThan(widest, width == 60 ? 60 - 10 : 80, "\(width)")
        }
    }

    func testHelpIs80ColumnsWhenPiped() throws {
        var texts: [String: String] = [:]
        for arguments in [["--help"], ["help", "help"], ["cidr", "match", "--help"]] {
            texts[arguments.joined(separator: " ")] = try ipdata(arguments, key: .absent).stdout
        }
        XCTAssertEqual(try overlong(texts, width: 80).problems, [])
    }

    /// The manual as `man` shows it at that width: its help blocks are fitted to what is left
    /// once man has indented them.
    func testTheManualFitsCOLUMNSOnceManHasIndentedIt() throws {
        for width in [60, 100] {
            let page = try ipdata(["man"], key: .absent, extra: ["COLUMNS": String(width)]).stdout
            var blocks: [String] = []
            var inBlock = false
            for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
                if line == ".nf" || line == ".fi" {
                    inBlock = line == ".nf"
                } else if inBlock {
                    blocks.append(String(line))
                }
            }
            // The roff source: a block's lines fit the width less man's indentation, each escape
            // (\-, \e, \&, \[u2026]) counted as the one character it shows.
            let source = blocks.map {
                $0.replacingOccurrences(of: #"\\\[u[0-9A-F]+\]|\\[-e&]"#, with: "x", options: .regularExpression)
            }
            XCTAssertEqual(try overlong(["man": source.joined(separator: "\n")], width: width - 7).problems, [])

            guard let man = ToolRun.path(of: "man") else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: man)
            process.arguments = ["-l", "-"]
            process.environment = ["MANWIDTH": String(width), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            let (input, output) = (Pipe(), Pipe())
            (process.standardInput, process.standardOutput, process.standardError) = (input, output, Pipe())
            try process.run()
            input.fileHandleForWriting.write(Data(page.utf8))
            try input.fileHandleForWriting.close()
            let shown = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertTrue(shown.contains("ipdata cidr match"), "man showed the page")
            XCTAssertEqual(try overlong(["man": shown], width: width).problems, [], "\(width)")
        }
    }

    func testAUsageLineIsWrappedUnderItself() {
        XCTAssertEqual(
            HelpProse.fitted("USAGE: ipdata help [bulk | grep | enrich | summarize | cidr]", width: 40),
            "USAGE: ipdata help [bulk | grep | enrich\n         | summarize | cidr]")
        XCTAssertEqual(
            HelpProse.fitted("  short\n    one-unbreakable-word-longer-than-the-width", width: 20),
            "  short\n    one-unbreakable-word-longer-than-the-width")
        XCTAssertEqual(HelpProse.fitted("  a b c d e f", width: 7), "  a b c\n    d e\n    f")
    }
}
#endif
