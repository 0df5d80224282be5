// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

@testable import ipdata_cli

/// How a table fits its width, on answers shaped like real ones (long company names, IPv6,
/// CJK and accented city names, failed lookups), read back by Python: each line's display
/// width (`unicodedata.east_asian_width`), each shown value whole under its header, each error
/// whole, and the columns left out exactly those the notice names.
final class TableLayoutTests: XCTestCase {
    private static let cities = [
        "Mountain View", "東京", "서울특별시", "São Paulo", "Zu\u{0308}rich", "Frankfurt am Main", "Ho Chi Minh City",
        "Sunnyvale", "",
    ]
    private static let regions = ["California", "Tokyo", "Île-de-France", "Nordrhein-Westfalen", "Seoul", ""]
    private static let companies = [
        "Comcast Cable Communications, LLC", "Amazon.com, Inc.", "Deutsche Telekom AG", "中国电信股份有限公司",
        "Space Exploration Technologies Corporation", "Hetzner Online GmbH", "NTT Communications Corporation",
        "Cloudflare, Inc.",
    ]
    private static let countries = ["US", "JP", "KR", "BR", "CH", "DE", "VN", "CN"]

    /// `count` records from `seed`: addresses of both families (IPv6 written out in full), and
    /// one failed lookup in about twelve (a private address, or a line that is no address).
    static func records(_ count: Int, seed: UInt64) -> [Record] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { index -> Record in
            if Int.random(in: 0..<12, using: &random) == 0 {
                if index % 2 == 0 {
                    let ip = "10.\(index % 256).0.1"
                    return ["ip": .string(ip), "error": .string("Bad Request: \(ip) is a private IP address")]
                }
                let line = "not-an-address-\(index)"
                return [
                    "ip": .string(line),
                    "error": .string("Bad Request: \(line) does not appear to be an IPv4 or IPv6 address"),
                ]
            }
            let ip =
                Bool.random(using: &random)
                ? (0..<4).map { _ in String(Int.random(in: 1...254, using: &random)) }.joined(separator: ".")
                : (0..<8).map { _ in String(UInt16.random(in: 0x1000...0xFFFF, using: &random), radix: 16) }
                    .joined(separator: ":")
            let company = companies.randomElement(using: &random)!
            return [
                "ip": .string(ip), "city": .string(cities.randomElement(using: &random)!),
                "region": .string(regions.randomElement(using: &random)!),
                "country_code": .string(countries.randomElement(using: &random)!),
                "emoji_flag": .string("🇯🇵"),
                "asn": .object([
                    "asn": .string("AS\(Int.random(in: 1...400_000, using: &random))"), "name": .string(company),
                ]),
                "company": .object(["name": .string(company)]),
                "threat": .object(["is_threat": .bool(Int.random(in: 0..<5, using: &random) == 0)]),
            ]
        }
    }

    /// The table of `records` in `columns` at `width`, and what it told.
    private func table(
        _ records: [Record], columns: [String], width: Int, priority: [String]?
    ) throws -> (text: String, notices: [TableWriter.Notice]) {
        var notices: [TableWriter.Notice] = []
        let text = try captureOutput { sink in
            let writer = TableWriter(
                columns: columns, sink: sink, width: width, priority: priority, notify: { notices.append($0) })
            for record in records { try writer.write(record) }
            try writer.finish()
        }
        return (text, notices)
    }

    /// Python's reading of `text`, the table of `records` in `columns`: exits non-zero with what
    /// is wrong. `wholeValues`: every value shown must be whole. Prints the header's columns.
    private func check(
        _ text: String, records: [Record], columns: [String], width: Int, wholeValues: Bool,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String] {
        let input = JSONValue.object([
            "table": .string(text), "width": .integer(width), "columns": .array(columns.map(JSONValue.string)),
            "records": .array(records.map(JSONValue.object)), "whole": .bool(wholeValues),
        ])
        let output = try ToolRun.output(
            "python3", ["-c", Self.reader], stdin: Data(input.jsonText().utf8), file: file, line: line)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static let reader = #"""
        import json, sys, unicodedata

        def width(text):
            return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
                       for c in text)

        def cut(text, start, end):
            """The characters of text between display columns start and end."""
            out, at = "", 0
            for c in text:
                if start <= at < end:
                    out += c
                at += width(c)
            return out

        def value(record, path):
            for key in path.split("."):
                record = record.get(key) if isinstance(record, dict) else None
            if record is None:
                return ""
            return ("true" if record else "false") if isinstance(record, bool) else str(record)

        given = json.load(sys.stdin)
        limit, records, columns = given["width"], given["records"], given["columns"]
        lines = given["table"].split("\n")
        assert lines[-1] == "", "the table ends with a line break"
        lines = lines[:-1]
        for line in lines:
            assert width(line) <= limit, f"{width(line)} > {limit}: {line!r}"
        header = lines[0]
        names = header.split()
        assert names[0] == "ip", header
        if not given["whole"]:
            # Headers may be cut too: each names the first column it is a cut of.
            left = list(columns)
            for index, name in enumerate(names):
                while left and not (left[0] == name or name.endswith("…") and left[0].startswith(name[:-1])):
                    left.pop(0)
                assert left, f"header {name!r} is no column of {columns}"
                names[index] = left.pop(0)
            header_tokens = header.split()
        else:
            header_tokens = names
        assert [c for c in columns if c in names] == names, f"header {names} out of order of {columns}"
        starts, found = [], 0
        for n in header_tokens:
            found = header.index(n, found)
            starts.append(width(header[:found]))
            found += len(n)
        rows = lines[1:]
        at = 0
        for record in records:
            row = rows[at]
            at += 1
            if record.get("error"):
                ip, first = record["ip"], row.split("  ")[0]
                # The error beside the address, or below it when there is too little room.
                assert first == ip or not given["whole"] and first.endswith("…") and ip.startswith(first[:-1]), \
                    f"{row!r} names {ip}"
                parts = [row[len(first):]]
                while at < len(rows) and rows[at].startswith("  "):
                    parts.append(rows[at])
                    at += 1
                text = " ".join(part.strip() for part in parts).strip()
                assert text == record["error"], f"error {text!r} is not {record['error']!r}"
                continue
            for index, name in enumerate(names):
                end = starts[index + 1] if index + 1 < len(names) else 10**6
                shown = cut(row, starts[index], end).strip()
                want = value(record, name)
                if given["whole"]:
                    assert shown == want, f"{name}: {shown!r} is not {want!r} in {row!r}"
                else:
                    assert shown == want or (shown.endswith("…") and want.startswith(shown[:-1])), \
                        f"{name}: {shown!r} is no cut of {want!r}"
        assert at == len(rows), f"{len(rows) - at} lines more than records"
        print("\n".join(names))
        """#

    func testTheDefaultColumnsThatFitAreShownWholeAndTheOthersNamed() throws {
        let records = Self.records(300, seed: 26)
        let columns = Columns.columns(kind: .address, format: .table, selection: nil, shape: .list)
        for width in [40, 80, 120] {
            let (text, notices) = try table(
                records, columns: columns, width: width, priority: Columns.addressTablePriority)
            let shown = try check(text, records: records, columns: columns, width: width, wholeValues: true)
            let leftOut = Columns.addressTable.filter { !shown.contains($0) }
            XCTAssertEqual(notices, leftOut.isEmpty ? [] : [.leftOut(leftOut, width: width)], "\(width)")
            XCTAssertFalse(shown.contains("error"), "an error is no column")
            XCTAssertEqual(shown.first, "ip")
            if width == 120 { XCTAssertGreaterThan(shown.count, 3, "\(shown)") }
        }
    }

    func testColumnsAreKeptInPriorityOrder() throws {
        // The first 100 rows set the widths: here they are all the rows.
        let records = Self.records(TableWriter.alignmentRows, seed: 7)
        let columns = Columns.columns(kind: .address, format: .table, selection: nil, shape: .list)
        for width in 30...120 {
            let (text, _) = try table(records, columns: columns, width: width, priority: Columns.addressTablePriority)
            let header = text.prefix { $0 != "\n" }.split(separator: " ").map(String.init)
            // A column is left out only when it does not fit beside those before it in priority.
            let natural = { (column: String) in
                records.map { TerminalText.width($0.value(at: column)?.cellText ?? "") }.reduce(column.count, max)
            }
            var used = 0
            for column in Columns.addressTablePriority {
                let needed = natural(column) + (used == 0 ? 0 : 2)
                let fits = used == 0 || used + needed <= width
                XCTAssertEqual(header.contains(column), fits, "\(width): \(column) in \(header)")
                if fits { used += needed }
            }
        }
    }

    func testTheColumnsChosenWithFieldsAreAllShownAndACutIsSaid() throws {
        let records = Self.records(300, seed: 3)
        let columns = ["ip", "emoji_flag", "city", "company.name", "asn.name", "region", "error"]
        for width in [40, 80, 120] {
            let (text, notices) = try table(records, columns: columns, width: width, priority: nil)
            let shown = try check(text, records: records, columns: columns, width: width, wholeValues: false)
            XCTAssertEqual(shown, Array(columns.dropLast()), "\(width): none is dropped")
            XCTAssertEqual(notices, text.contains("…") ? [.cut(width: width)] : [], "\(width)")
        }
        XCTAssertEqual(try table(records, columns: columns, width: 40, priority: nil).notices, [.cut(width: 40)])
    }

    func testAnErrorTooLongForItsRowGoesOnMoreLines() throws {
        let error = "Bad Request: not-an-address does not appear to be an IPv4 or IPv6 address"
        let records: [Record] = [
            ["ip": .string("2001:db8:85a3:8d3:1319:8a2e:370:7348"), "city": .string("東京")],
            ["ip": .string("not-an-address"), "error": .string(error)],
        ]
        let columns = ["ip", "city", "error"]
        for width in [40, 60, 80] {
            let (text, notices) = try table(records, columns: columns, width: width, priority: ["ip", "city"])
            _ = try check(text, records: records, columns: columns, width: width, wholeValues: true)
            XCTAssertFalse(notices.contains(.cut(width: width)), "\(width): \(text)")
        }
        XCTAssertEqual(
            try table(records, columns: columns, width: 60, priority: ["ip", "city"]).text,
            """
            ip                                    city
            2001:db8:85a3:8d3:1319:8a2e:370:7348  東京
            not-an-address                        Bad Request:
                                                  not-an-address does
                                                  not appear to be an
                                                  IPv4 or IPv6 address

            """)
    }

    func testTheNoticesSayWhatToDo() {
        XCTAssertEqual(
            TableWriter.Notice.leftOut(["region", "asn.name"], width: 80).message,
            "table: left out region, asn.name to fit 80 columns (add them with -f, or use --format csv)")
        XCTAssertEqual(
            TableWriter.Notice.cut(width: 60).message,
            "table: values cut to fit 60 columns (fewer -f fields, or --format csv)")
    }
}
#endif
