// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

@testable import ipdata_cli

/// `--format tsv` and `--format markdown`, written for thousands of records shaped like answers
/// with values that break naive writers (tabs, line breaks, CRLF, backslashes, pipes, Markdown
/// markup, a BOM, control characters), and read back by independent readers: Python's
/// `split('\t')` and awk for TSV, GitHub's own Markdown parser (`cmark-gfm -e table`) and a
/// strict row check for Markdown.
final class TSVAndMarkdownTests: XCTestCase {
    private static let awkward = [
        "tab\there", "two\nlines", "crlf\r\nline", "back\\slash", "\\t is not a tab", "pipe | inside", "|",
        "*bold* _it_ `code` ~strike~", "snake_case_name _lead trail_ a_", "__init__", "[link](http://x)",
        "<script>alert(1)</script>", "AT&T &amp;",
        "\u{FEFF}bom", "trailing\\", "ends with newline\n", "\u{1B}[31mred", "東京 🇯🇵", "",
    ]
    private let columns = ["ip", "city", "asn.name", "threat.is_threat", "error"]

    /// The table layout's records, some with an awkward city or company name.
    private func records(_ count: Int) -> [Record] {
        var random = SeededGenerator(seed: 5)
        return TableLayoutTests.records(count, seed: 11).map { record in
            var record = record
            if Int.random(in: 0..<4, using: &random) == 0 {
                record["city"] = .string(Self.awkward.randomElement(using: &random)!)
                record["asn"] = .object(["name": .string(Self.awkward.randomElement(using: &random)!)])
            }
            return record
        }
    }

    private func write(_ records: [Record], format: OutputFormat, forTerminal: Bool = false) throws -> String {
        try captureOutput { sink in
            let writer = makeRecordWriter(
                format: format, shape: .list, columns: columns, sink: sink, forTerminal: forTerminal)
            for record in records { try writer.write(record) }
            try writer.finish()
        }
    }

    /// The records as JSON lines, for the Python readers.
    private func jsonLines(_ records: [Record]) -> String {
        records.map { JSONValue.object($0).jsonText() }.joined(separator: "\n")
    }

    private static let values = #"""
        import json, sys

        def value(record, path):
            for key in path.split("."):
                record = record.get(key) if isinstance(record, dict) else None
            if record is None:
                return ""
            return ("true" if record else "false") if isinstance(record, bool) else str(record)
        """#

    // MARK: TSV

    func testTSVSplitsIntoTheHeadersWidthAndUnescapesToEveryValue() throws {
        let records = records(3000)
        let text = try write(records, format: .tsv)
        let folder = try makeTemporaryDirectory()
        let (tsv, json) = (folder.appendingPathComponent("out.tsv"), folder.appendingPathComponent("in.jsonl"))
        try Data(text.utf8).write(to: tsv)
        try Data(jsonLines(records).utf8).write(to: json)
        let script =
            Self.values + #"""

                columns = sys.argv[3].split(",")
                records = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8")]
                data = open(sys.argv[1], "rb").read().decode("utf-8")
                assert "\r" not in data, "no carriage return is left raw"
                lines = data.split("\n")
                assert lines[-1] == "", "the last line ends"
                rows = [line.split("\t") for line in lines[:-1]]
                assert rows[0] == columns, rows[0]
                assert len(rows) == len(records) + 1, (len(rows), len(records))

                def unescape(field):
                    out, i = "", 0
                    while i < len(field):
                        if field[i] == "\\":
                            out += {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[field[i + 1]]
                            i += 2
                        else:
                            out += field[i]
                            i += 1
                    return out

                for row, record in zip(rows[1:], records):
                    assert len(row) == len(columns), row
                    for field, column in zip(row, columns):
                        assert unescape(field) == value(record, column), (field, value(record, column))
                print(len(rows) - 1)
                """#
        let output = try ToolRun.output("python3", ["-c", script, tsv.path, json.path, columns.joined(separator: ",")])
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "3000\n")
        // awk, as a user would split it: every line has the header's number of fields.
        let counts = try ToolRun.output("awk", ["-F", "\t", "{ print NF }", tsv.path])
        XCTAssertEqual(Set(String(decoding: counts, as: UTF8.self).split(separator: "\n")), ["\(columns.count)"])
    }

    func testTSVEscapesTabsLineBreaksAndBackslashes() throws {
        let text = try write(
            [["ip": .string("1.1.1.1"), "city": .string("a\tb\nc\r\nd\\e"), "asn": .object(["name": .string("x")])]],
            format: .tsv)
        XCTAssertEqual(text, "ip\tcity\tasn.name\tthreat.is_threat\terror\n1.1.1.1\ta\\tb\\nc\\r\\nd\\\\e\tx\t\t\n")
    }

    func testTSVOnATerminalWritesControlCharactersOut() throws {
        let text = try write(
            [["ip": .string("\u{1B}[2J1.1.1.1"), "city": .string("a\tb")]], format: .tsv, forTerminal: true)
        XCTAssertEqual(text.split(separator: "\n").last, "\\x1b[2J1.1.1.1\ta\\tb\t\t\t")
    }

    func testTSVWithoutRecordsIsTheHeaderAlone() throws {
        XCTAssertEqual(try write([], format: .tsv), "ip\tcity\tasn.name\tthreat.is_threat\terror\n")
    }

    // MARK: Markdown

    func testMarkdownIsATableGitHubReadsBackToEveryValue() throws {
        let records = records(2000)
        let text = try write(records, format: .markdown)
        let folder = try makeTemporaryDirectory()
        let json = folder.appendingPathComponent("in.jsonl")
        try Data(jsonLines(records).utf8).write(to: json)
        // Each value as a reader sees it: its lines, control characters written out in each.
        let shown = records.map { record in
            columns.map { column in
                (record.value(at: column)?.cellText ?? "").split(
                    omittingEmptySubsequences: false, whereSeparator: \.isNewline
                )
                .map { TerminalText.escaped(String($0)) }.joined(separator: "\n")
            }
        }
        let expected = folder.appendingPathComponent("expected.json")
        let rows = JSONValue.array(shown.map { .array($0.map(JSONValue.string)) })
        try Data(rows.jsonText().utf8).write(to: expected)

        // A strict reading of the rows: every line a row of the header's width, split at the
        // pipes that are no escaped ones, each escape undone.
        let strict =
            #"""
            import json, re, sys
            expected = json.load(open(sys.argv[1], encoding="utf-8"))
            columns = sys.argv[2].split(",")
            lines = sys.stdin.read().split("\n")
            assert lines[-1] == ""
            lines = lines[:-1]
            def cells(line):
                """The cells of a row: split at unescaped pipes, escapes undone, <br> a line break."""
                assert line.startswith("| ") and line.endswith(" |"), line
                out, cell, i = [], "", 1
                while i < len(line):
                    if line[i] == "\\":
                        cell += line[i + 1]
                        i += 2
                    elif line[i] == "|":
                        out.append(cell.strip())
                        cell, i = "", i + 1
                    elif line.startswith("<br>", i):
                        cell += "\n"
                        i += 4
                    else:
                        cell += line[i]
                        i += 1
                assert cell == "", line
                return out
            assert cells(lines[0]) == columns, lines[0]
            assert lines[1] == "|" + " --- |" * len(columns), lines[1]
            assert len(lines) == len(expected) + 2
            for line, want in zip(lines[2:], expected):
                got = cells(line)
                assert len(got) == len(columns), line
                for g, w in zip(got, want):
                    assert g.strip() == w.strip(), (g, w)
            print("ok")
            """#
        let strictOutput = try ToolRun.output(
            "python3", ["-c", strict, expected.path, columns.joined(separator: ",")], stdin: Data(text.utf8))
        XCTAssertEqual(String(decoding: strictOutput, as: UTF8.self), "ok\n")

        // GitHub's parser: one table, the header's cells, then each record's values as text.
        guard ToolRun.path(of: "cmark-gfm") != nil else {
            throw XCTSkip("needs cmark-gfm (apt-get install cmark-gfm) for GitHub's reading")
        }
        let html = try ToolRun.output("cmark-gfm", ["-e", "table", "--unsafe"], stdin: Data(text.utf8))
        let reader =
            #"""
            import json, sys
            from html.parser import HTMLParser
            expected = json.load(open(sys.argv[1], encoding="utf-8"))
            columns = sys.argv[2].split(",")
            class Table(HTMLParser):
                def __init__(self):
                    super().__init__(convert_charrefs=True)
                    self.rows, self.cell, self.tables, self.other = [], None, 0, []
                def handle_starttag(self, tag, attrs):
                    if tag == "table": self.tables += 1
                    elif tag == "tr": self.rows.append([])
                    elif tag in ("td", "th"): self.cell = ""
                    elif tag == "br" and self.cell is not None: self.cell += "\n"
                    elif tag not in ("thead", "tbody", "a"): self.other.append(tag)
                def handle_endtag(self, tag):
                    if tag in ("td", "th"):
                        self.rows[-1].append(self.cell)
                        self.cell = None
                def handle_data(self, data):
                    if self.cell is not None: self.cell += data
            table = Table()
            table.feed(sys.stdin.read())
            assert table.tables == 1, table.tables
            assert not table.other, f"markup in values: {set(table.other)}"
            assert table.rows[0] == columns, table.rows[0]
            assert len(table.rows) == len(expected) + 1, len(table.rows)
            for got, want in zip(table.rows[1:], expected):
                assert len(got) == len(columns), got
                for g, w in zip(got, want):
                    assert g.strip() == w.strip(), (g, w)
            print("ok")
            """#
        let read = try ToolRun.output(
            "python3", ["-c", reader, expected.path, columns.joined(separator: ",")], stdin: html)
        XCTAssertEqual(String(decoding: read, as: UTF8.self), "ok\n")
    }

    func testMarkdownEscapesPipesMarkupAndLineBreaks() throws {
        let text = try write(
            [["ip": .string("1.1.1.1"), "city": .string("a|b\n*c*"), "asn": .object(["name": .string("<b>\\")])]],
            format: .markdown)
        XCTAssertEqual(
            text,
            """
            | ip | city | asn.name | threat.is_threat | error |
            | --- | --- | --- | --- | --- |
            | 1.1.1.1 | a\\|b<br>\\*c\\* | \\<b\\>\\\\ |  |  |

            """)
    }

    func testMarkdownLeavesAnUnderscoreInsideAWordAlone() {
        XCTAssertEqual(
            MarkdownWriter.cell("threat.is_tor _it_ a_ __x__ 1_2"), "threat.is_tor \\_it\\_ a\\_ \\_\\_x\\_\\_ 1_2")
    }

    func testMarkdownAndMdNameTheSameFormat() throws {
        XCTAssertEqual(try OutputFormat(parsing: "md"), .markdown)
        XCTAssertEqual(try OutputFormat(parsing: "Markdown"), .markdown)
        XCTAssertEqual(try OutputFormat(parsing: "tsv"), .tsv)
    }
}
#endif
