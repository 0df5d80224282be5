// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// What a person sees in a terminal: control characters written out, a table that fits the
/// terminal, and a progress bar that fits it and stays out of the records. The terminal tests
/// run `ipdata` on a real pseudo-terminal (util-linux `script`) of 60 and 80 columns.
final class TerminalOutputTests: CommandLineTestCase {
    /// Runs `ipdata arguments…` on a terminal `columns` wide and returns what the terminal was sent.
    private func onTerminal(
        columns: Int, _ arguments: [String], extra: [String: String] = [:], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> String {
        let script = try terminalScript()
        // The terminal script(1) opens has no size of its own when its input is no terminal.
        let command =
            "stty cols \(columns) rows 24 && exec "
            + ([BuiltBinary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let run = try BuiltBinary.run(
            ["--quiet", "--return", "--command", command, "/dev/null"], executable: script,
            environment: childEnvironment(key: key, extra: extra), file: file, line: line)
        XCTAssertTrue([0, 1].contains(run.status), run.stdout, file: file, line: line)
        return run.stdout
    }

    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { "9.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
    }

    // MARK: Control characters

    func testAnEscapeSequenceInAnErrorLineIsWrittenOut() throws {
        let run = try ipdata(["\u{1B}]0;pwned\u{07}\u{1B}[31m8.8.8.8"] + base)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stderr,
            "ipdata: Bad Request: \\x1b]0;pwned\\x07\\x1b[31m8.8.8.8 does not appear to be an IPv4 or IPv6 address\n")
    }

    func testAnEscapeSequenceInATableCellIsWrittenOut() throws {
        let run = try ipdata(
            ["bulk", "--format", "table", "-f", "ip,country_code"] + base, stdin: "\u{1B}[2J\u{1B}[Hx\n8.8.8.8\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertFalse(run.stdout.contains("\u{1B}"), run.stdout)
        XCTAssertTrue(run.stdout.contains("\n\\x1b[2J\\x1b[Hx  "), run.stdout)
        XCTAssertTrue(run.stdout.contains("Bad Request: \\x1b[2J\\x1b[Hx does not"), run.stdout)
    }

    // MARK: Colour

    func testOnATerminalTheIpdataOfAnErrorIsRedAndANoticeIsNot() throws {
        let shown = try onTerminal(columns: 80, ["--sandbox", "10.0.0.1"])
        XCTAssertTrue(shown.contains("ipdata: sandbox: sample data, not live\r\n"), shown)
        XCTAssertTrue(shown.contains("\u{1B}[31mipdata:\u{1B}[0m Bad Request: 10.0.0.1 is a private"), shown)
    }

    func testNO_COLORTurnsColourOffOnATerminal() throws {
        let shown = try onTerminal(columns: 80, ["--sandbox", "10.0.0.1"], extra: ["NO_COLOR": "1"])
        XCTAssertTrue(shown.contains("\r\nipdata: Bad Request: 10.0.0.1 is a private"), shown)
        XCTAssertFalse(shown.contains("\u{1B}["), shown)
    }

    func testAnErrorIsNotColouredWhenStandardErrorIsNoTerminal() throws {
        let run = try ipdata(["--sandbox", "10.0.0.1"], key: .absent)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stderrLines,
            ["ipdata: sandbox: sample data, not live", "ipdata: Bad Request: 10.0.0.1 is a private IP address"])
    }

    // MARK: The table

    func testATableFitsTheTerminalWithWholeValuesAndSaysWhatItLeftOut() throws {
        let file = try makeFile("8.8.8.8\n10.0.0.1\n1.1.1.1\n2001:4860:4860::8844\n")
        let leftOut = [60: "region, asn.name, threat.is_threat", 80: "region, threat.is_threat"]
        for columns in [60, 80] {
            let arguments = ["bulk", "--format", "table", "--no-progress", file.path] + base
            // Without the notices (which may wrap like any long line on standard error).
            let screen = TerminalScreen(columns: columns, showing: try onTerminal(columns: columns, ["-q"] + arguments))
            XCTAssertEqual(screen.wraps, 0, "\(columns): \(screen.lines)")
            let header = screen.lines[0].split(separator: " ")
            XCTAssertEqual(header.first, "ip", screen.lines[0])
            XCTAssertFalse(screen.lines.contains { $0.contains("…") }, "nothing is cut: \(screen.lines)")
            let error = screen.lines.drop { !$0.hasPrefix("10.0.0.1  ") }.prefix { !$0.hasPrefix("1.1.1.1") }
                .joined(separator: " ").split(separator: " ").dropFirst().joined(separator: " ")
            XCTAssertEqual(error, "Bad Request: 10.0.0.1 is a private IP address", "\(columns): \(screen.lines)")
            for column in leftOut[columns]!.components(separatedBy: ", ") {
                XCTAssertFalse(header.contains(Substring(column)), "\(columns): \(column)")
            }

            let shown = try onTerminal(columns: columns, arguments)
            XCTAssertTrue(
                shown.contains(
                    "ipdata: table: left out \(leftOut[columns]!) to fit \(columns) columns "
                        + "(add them with -f, or use --format csv)\r\n"), shown)
        }
    }

    func testATableSaysWhatItLeftOutOnlyOnATerminal() throws {
        let run = try ipdata(
            ["bulk", "--format", "table"] + base, stdin: "8.8.8.8\n2001:4860:4860::8844\n", extra: ["COLUMNS": "40"])
        XCTAssertEqual(run.status, 0)
        XCTAssertFalse(run.stderr.contains("left out"), run.stderr)
        XCTAssertEqual(run.stdoutLines[0].split(separator: " ").first, "ip")
    }

    func testATableOfChosenColumnsSaysWhenItCutsThem() throws {
        let run = try ipdata(
            ["bulk", "--format", "table", "-f", "ip,asn.name,company.name,country_name,city"] + base,
            stdin: "8.8.8.8\n2001:4860:4860::8844\n", extra: ["COLUMNS": "40"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(
            run.stdoutLines[0].split(separator: " ").count, 5, "every column asked for is there: \(run.stdout)")
        XCTAssertTrue(
            run.stderrLines.contains("ipdata: table: values cut to fit 40 columns (fewer -f fields, or --format csv)"),
            run.stderr)
    }

    func testATableAlignsFlagsAndCJKByTheirWidthOnTheTerminal() throws {
        let file = try makeFile("8.8.8.8\n東京\n1.1.1.1\n")
        for columns in [60, 80] {
            let screen = TerminalScreen(
                columns: columns,
                showing: try onTerminal(
                    columns: columns,
                    ["bulk", "--format", "table", "--no-progress", "-f", "ip,emoji_flag,country_name", file.path]
                        + base))
            XCTAssertEqual(screen.wraps, 0, "\(columns): \(screen.lines)")
            let header = screen.lines[0]
            XCTAssertTrue(header.hasPrefix("ip       emoji_flag  country_name"), header)
            let countryColumn = screen.column(of: "country_name", onLine: 0)
            XCTAssertNotNil(countryColumn)
            XCTAssertEqual(screen.column(of: "United States", onLine: 1), countryColumn, screen.lines[1])
            let australia = try XCTUnwrap(screen.lines.firstIndex { $0.hasPrefix("1.1.1.1") })
            XCTAssertEqual(screen.column(of: "Australia", onLine: australia), countryColumn, screen.lines[australia])
            // The error starts where the first column after the address does.
            XCTAssertEqual(
                screen.column(of: "Bad Request: ", onLine: 2), screen.column(of: "emoji_flag", onLine: 0),
                screen.lines[2])
        }
    }

    func testATableFitsCOLUMNS() throws {
        let run = try ipdata(
            ["bulk", "--format", "table"] + base, stdin: "8.8.8.8\n10.0.0.1\n2001:4860:4860::8844\n",
            extra: ["COLUMNS": "60"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdoutLines.count, 5, "the error takes two lines: \(run.stdout)")
        for line in run.stdoutLines { XCTAssertLessThanOrEqual(TerminalText.width(line), 60, line) }
        XCTAssertTrue(run.stdoutLines[0].hasPrefix("ip                    city   "), run.stdoutLines[0])
    }

    // MARK: The progress bar

    func testTheProgressBarStaysOutOfRecordsOnTheSameTerminal() throws {
        let ips = addresses(300)
        let file = try makeFile(ips.joined(separator: "\n") + "\n")
        for columns in [60, 80] {
            let output = try onTerminal(columns: columns, ["bulk", "-f", "ip", file.path] + base)
            XCTAssertTrue(output.contains("\r["), "a bar was drawn")
            let lines = TerminalScreen(columns: columns, showing: output).lines
            let records = Array(lines.prefix { !$0.hasPrefix("ipdata: ") })
            XCTAssertEqual(records.count, 300, "\(columns)")
            for (record, ip) in zip(records, ips) where record != "{\"ip\":\"\(ip)\"}" {
                return XCTFail("\(columns): a record line reads \(record)")
            }
            XCTAssertTrue(lines[300].hasPrefix("ipdata: 300 records, 0 failed, 3 requests sent, "), lines[300])
        }
    }

    func testQuietAndVerboseDrawNoBar() throws {
        let file = try makeFile(addresses(500).joined(separator: "\n") + "\n")
        let output = home.appendingPathComponent("out.jsonl")
        for option in ["--quiet", "--verbose"] {
            let shown = try onTerminal(columns: 80, ["bulk", file.path, "--output", output.path, option] + base)
            XCTAssertFalse(shown.contains("\r["), "\(option): \(shown)")
            XCTAssertFalse(shown.contains("/500 records"), "\(option): \(shown)")
        }
    }

    func testTheProgressBarFitsTheTerminal() throws {
        let file = try makeFile(addresses(500).joined(separator: "\n") + "\n")
        let output = home.appendingPathComponent("out.jsonl")
        for columns in [60, 80] {
            let shown = try onTerminal(columns: columns, ["bulk", file.path, "--output", output.path] + base)
            XCTAssertTrue(shown.contains("\r["), "a bar was drawn")
            // The summary is a message, which may wrap; the bar before it must not.
            let bar = String(shown[..<(shown.range(of: "ipdata: 500 records")?.lowerBound ?? shown.endIndex)])
            let screen = TerminalScreen(columns: columns, showing: bar)
            XCTAssertEqual(screen.wraps, 0, "\(columns): \(screen.lines)")
            XCTAssertEqual(screen.lines, [], "the bar is cleared before the summary")
        }
    }
}
#endif
