// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The output formats: CSV quoting, dotted-path columns, JSON and JSON lines, tables.
final class RecordWriterTests: XCTestCase {
    private let cloudflare: Record = [
        "ip": .string("1.1.1.1"),
        "asn": .object(["name": .string("Cloudflare, Inc."), "asn": .string("AS13335")]),
        "threat": .object(["is_tor": .bool(false), "scores": .object(["trust_score": .integer(100)])]),
        "latitude": .number(-33.494),
    ]

    private func write(
        _ records: [Record], format: OutputFormat, shape: RecordShape = .list, columns: [String], width: Int = 80
    ) throws -> String {
        try captureOutput { sink in
            let writer = makeRecordWriter(format: format, shape: shape, columns: columns, sink: sink, tableWidth: width)
            for record in records { try writer.write(record) }
            try writer.finish()
        }
    }

    // MARK: CSV

    func testCSVHasAHeaderThenOneRowPerRecord() throws {
        let text = try write([cloudflare, ["ip": .string("8.8.8.8")]], format: .csv, columns: ["ip", "latitude"])
        XCTAssertEqual(text, "ip,latitude\n1.1.1.1,-33.494\n8.8.8.8,\n")
    }

    func testCSVWithoutRecordsIsTheHeaderAlone() throws {
        XCTAssertEqual(try write([], format: .csv, columns: ["ip", "error"]), "ip,error\n")
    }

    func testCSVQuotesAFieldWithAComma() throws {
        let text = try write([cloudflare], format: .csv, columns: ["ip", "asn.name"])
        XCTAssertEqual(text, "ip,asn.name\n1.1.1.1,\"Cloudflare, Inc.\"\n")
    }

    func testCSVDoublesQuotesInsideAQuotedField() {
        XCTAssertEqual(CSVWriter.field(#"The "Best" ISP"#), #""The ""Best"" ISP""#)
        XCTAssertEqual(CSVWriter.field("\""), "\"\"\"\"")
    }

    func testCSVQuotesLineBreaks() {
        XCTAssertEqual(CSVWriter.field("two\nlines"), "\"two\nlines\"")
        XCTAssertEqual(CSVWriter.field("carriage\rreturn"), "\"carriage\rreturn\"")
        XCTAssertEqual(CSVWriter.field("crlf\r\n"), "\"crlf\r\n\"")
    }

    func testCSVLeavesPlainFieldsAlone() {
        XCTAssertEqual(CSVWriter.field("Mountain View"), "Mountain View")
        XCTAssertEqual(CSVWriter.field("2001:db8::1"), "2001:db8::1")
        XCTAssertEqual(CSVWriter.field(""), "")
    }

    func testCSVNeutralisesWhatASpreadsheetWouldRunAsAFormula() {
        XCTAssertEqual(CSVWriter.field("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"")
        XCTAssertEqual(CSVWriter.field("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0")
        XCTAssertEqual(CSVWriter.field("-2+3"), "'-2+3")
        XCTAssertEqual(CSVWriter.field("@SUM(A1)"), "'@SUM(A1)")
        XCTAssertEqual(CSVWriter.field("\tTAB"), "'\tTAB")
        XCTAssertEqual(CSVWriter.field("\r=1"), "\"'\r=1\"")
        XCTAssertEqual(CSVWriter.field("-"), "'-")
    }

    func testCSVKeepsPlainNumbersAndAddressesAsData() {
        for number in ["-33.494", "-1", "+1", "-1e-05", "-0.5", "37.386", "15169"] {
            XCTAssertEqual(CSVWriter.field(number), number)
        }
        XCTAssertEqual(CSVWriter.field("2001:db8::1"), "2001:db8::1")
        XCTAssertEqual(CSVWriter.field("::ffff:1.2.3.4"), "::ffff:1.2.3.4")
        XCTAssertEqual(CSVWriter.field("a=b"), "a=b")
    }

    func testCSVNeutralisesAFormulaInTheHeaderToo() throws {
        let text = try write([["ip": .string("1.1.1.1")]], format: .csv, columns: ["=1+1", "ip"])
        XCTAssertEqual(text, "'=1+1,ip\n,1.1.1.1\n")
    }

    func testCSVReadsNestedValuesByDottedPath() throws {
        let text = try write(
            [cloudflare], format: .csv, columns: ["asn.asn", "threat.is_tor", "threat.scores.trust_score", "asn.nope"])
        XCTAssertEqual(text, "asn.asn,threat.is_tor,threat.scores.trust_score,asn.nope\nAS13335,false,100,\n")
    }

    func testCSVWritesAnObjectOrArrayAsCompactJSON() throws {
        let record: Record = ["languages": .array([.object(["name": .string("English")])])]
        let text = try write([record], format: .csv, columns: ["languages"])
        XCTAssertEqual(text, "languages\n\"[{\"\"name\"\":\"\"English\"\"}]\"\n")
    }

    func testACSVRowReadsBackToItsValues() throws {
        let tricky = "a, \"b\"\nc"
        let text = try write(
            [["ip": .string("1.1.1.1"), "error": .string(tricky)]], format: .csv, columns: ["ip", "error"])
        let row = String(text.dropFirst("ip,error\n".count).dropLast())
        XCTAssertEqual(CSVRecord.fields(row), ["1.1.1.1", tricky])
    }

    // MARK: JSON

    func testJSONLinesIsOneCompactSortedObjectPerLine() throws {
        let text = try write(
            [cloudflare, ["ip": .string("10.0.0.1"), "error": .string("Bad Request: private")]], format: .jsonl,
            columns: [])
        XCTAssertEqual(
            text,
            """
            {"asn":{"asn":"AS13335","name":"Cloudflare, Inc."},"ip":"1.1.1.1","latitude":-33.494,"threat":{"is_tor":false,"scores":{"trust_score":100}}}
            {"error":"Bad Request: private","ip":"10.0.0.1"}

            """)
    }

    func testJSONForOneResultIsAPrettyObject() throws {
        let text = try write(
            [["ip": .string("8.8.8.8"), "asn": .object(["name": .string("Google LLC")])]], format: .json,
            shape: .single, columns: [])
        XCTAssertEqual(
            text,
            """
            {
              "asn": {
                "name": "Google LLC"
              },
              "ip": "8.8.8.8"
            }

            """)
    }

    func testJSONForAListIsAPrettyArrayWrittenAsRecordsArrive() throws {
        let text = try write([["ip": .string("1.1.1.1")], ["ip": .string("8.8.8.8")]], format: .json, columns: [])
        XCTAssertEqual(
            text,
            """
            [
              {
                "ip": "1.1.1.1"
              },
              {
                "ip": "8.8.8.8"
              }
            ]

            """)
        XCTAssertEqual(try write([], format: .json, columns: []), "[]\n")
    }

    func testEveryJSONFormatReadsBackToTheSameRecords() throws {
        let records = [cloudflare, ["ip": .string("::1"), "error": .string("tab\there \"quoted\" / é 🇺🇸")]]
        let lines = try write(records, format: .jsonl, columns: []).split(separator: "\n")
        XCTAssertEqual(try lines.map { try JSONParser.parse(Data($0.utf8)) }, records.map(JSONValue.object))
        let array = try write(records, format: .json, columns: [])
        XCTAssertEqual(try JSONParser.parse(Data(array.utf8)), .array(records.map(JSONValue.object)))
    }

    // MARK: Table

    func testATableAlignsItsColumnsUnderAHeader() throws {
        let text = try write(
            [cloudflare, ["ip": .string("8.8.8.8"), "asn": .object(["name": .string("Google")])]], format: .table,
            columns: ["ip", "asn.name", "threat.is_tor"])
        XCTAssertEqual(
            text,
            """
            ip       asn.name          threat.is_tor
            1.1.1.1  Cloudflare, Inc.  false
            8.8.8.8  Google

            """)
    }

    func testATableKeepsEachRecordOnOneLine() throws {
        let text = try write([["ip": .string("a\nb\tc")]], format: .table, columns: ["ip"])
        XCTAssertEqual(text, "ip\na b c\n")
    }

    func testATableHoldsBackOnlyTheRowsThatSetTheWidths() throws {
        let sink = try OutputSink.file(atPath: try makeTemporaryDirectory().appendingPathComponent("table").path)
        let url = URL(fileURLWithPath: try XCTUnwrap(sink.temporaryPath), isDirectory: false)
        let writer = TableWriter(columns: ["ip"], sink: sink, width: 80)
        for index in 0..<(TableWriter.alignmentRows - 1) { try writer.write(["ip": .string("\(index)")]) }
        // What the writer handed the sink is in the file once the sink's buffer is written.
        try sink.flush()
        XCTAssertEqual(try Data(contentsOf: url).count, 0)
        try writer.write(["ip": .string("last of the first block")])
        try writer.write(["ip": .string("streamed, wider than the widths")])
        try sink.flush()
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, TableWriter.alignmentRows + 2)
        XCTAssertEqual(lines.last, "streamed, wider than the widths")
    }

    func testATableWritesControlCharactersOut() throws {
        let text = try write(
            [["ip": .string("\u{1B}[31m1.1.1.1"), "error": .string("\u{9B}2J \u{7F} \u{202E}txt")]], format: .table,
            columns: ["ip", "error"])
        XCTAssertEqual(text, "ip\n\\x1b[31m1.1.1.1  \\x9b2J \\x7f \\u202etxt\n")
    }

    func testATableFitsItsWidthAndShowsAnErrorWholeAcrossTheRow() throws {
        let error = "Bad Request: not-an-ip does not appear to be an IPv4 or IPv6 address"
        let records: [Record] = [
            ["ip": .string("8.8.8.8"), "city": .string("Mountain View"), "country_code": .string("US")],
            ["ip": .string("not-an-ip"), "error": .string(error)],
        ]
        let text = try write(records, format: .table, columns: ["ip", "city", "country_code", "error"], width: 60)
        XCTAssertEqual(
            text,
            """
            ip         city           country_code
            8.8.8.8    Mountain View  US
            not-an-ip  Bad Request: not-an-ip does not appear to be an
                       IPv4 or IPv6 address

            """)
        for width in [20, 40, 60, 80] {
            let lines = try write(
                records, format: .table, columns: ["ip", "city", "country_code", "error"], width: width
            )
            .split(separator: "\n")
            XCTAssertTrue(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines)")
            // The address (cut at 20 columns, where all three columns are shown), then the error.
            let rows = Array(lines.drop { !$0.hasPrefix("not-a") })
            let row = try XCTUnwrap(rows.first, "\(width): \(lines)")
            let besideIt = row.range(of: "  ").map { String(row[$0.upperBound...]) } ?? ""
            let error = ([besideIt] + rows.dropFirst().map(String.init))
                .joined(separator: " ").split(separator: " ").joined(separator: " ")
            XCTAssertEqual(error, records[1]["error"]?.cellText, "\(width): the error is whole")
        }
    }

    func testATableNarrowsTheWidestColumnsFirst() {
        XCTAssertEqual(TableWriter.fit(headers: [2, 4, 12, 5], values: [9, 13, 2, 68], into: 60), [9, 13, 12, 20])
        XCTAssertEqual(TableWriter.fit(headers: [2, 4], values: [15, 30], into: 80), [15, 30], "fits as it is")
        XCTAssertEqual(TableWriter.fit(headers: [5, 5, 5], values: [30, 30, 30], into: 10), [5, 5, 5], "at least 5")
    }

    func testATableCutsHeadersLongerThanTheirValuesBeforeTheValues() {
        // The default table columns: ip city region country_code asn.asn asn.name threat.is_threat error.
        let headers = [2, 4, 6, 12, 7, 8, 16, 5]
        let values = [15, 13, 10, 2, 7, 16, 5, 44]
        XCTAssertEqual(TableWriter.fit(headers: headers, values: values, into: 80), [15, 9, 9, 5, 7, 8, 5, 8])
        XCTAssertEqual(TableWriter.fit(headers: headers, values: values, into: 120), [15, 13, 10, 12, 7, 16, 16, 17])
    }

    func testATableKeepsTheFirstColumnWholeWhenItCan() {
        XCTAssertEqual(TableWriter.fit(headers: [2, 4, 5], values: [15, 30, 60], into: 40), [15, 11, 10])
        XCTAssertEqual(TableWriter.fit(headers: [2, 4], values: [39, 30], into: 60), [29, 29], "more than half")
    }

    func testATableAlignsWideCharactersByTheirDisplayWidth() throws {
        let records: [Record] = [
            ["ip": .string("8.8.8.8"), "emoji_flag": .string("🇺🇸"), "city": .string("Mountain View")],
            ["ip": .string("東京"), "emoji_flag": .string("🇯🇵"), "city": .string("Tōkyō")],
        ]
        let text = try write(records, format: .table, columns: ["ip", "emoji_flag", "city"])
        XCTAssertEqual(
            text,
            """
            ip       emoji_flag  city
            8.8.8.8  🇺🇸          Mountain View
            東京     🇯🇵          Tōkyō

            """)
    }

    func testATableCutsAStreamedValueToItsColumn() throws {
        let sink = try OutputSink.file(atPath: try makeTemporaryDirectory().appendingPathComponent("table").path)
        let url = URL(fileURLWithPath: try XCTUnwrap(sink.temporaryPath), isDirectory: false)
        let writer = TableWriter(columns: ["ip", "city"], sink: sink, width: 30)
        for _ in 0..<TableWriter.alignmentRows { try writer.write(["ip": .string("1.1.1.1"), "city": .string("x")]) }
        try writer.write(["ip": .string("2001:4860:4860::8844"), "city": .string(String(repeating: "y", count: 40))])
        try sink.flush()
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.last, "2001:4…  yyyyyyyyyyyyyyyyyyyy…")
    }

    // MARK: Columns

    func testAListOfAddressesAlwaysHasAnIPColumn() throws {
        let selection = try FieldSelection(parsing: ["country_code,asn.name"])
        XCTAssertEqual(
            Columns.columns(kind: .address, format: .csv, selection: selection, shape: .list),
            ["ip", "country_code", "asn.name", "error"])
        XCTAssertEqual(
            Columns.columns(kind: .address, format: .csv, selection: selection, shape: .single),
            ["country_code", "asn.name"])
        XCTAssertEqual(
            Columns.columns(
                kind: .address, format: .table, selection: try FieldSelection(parsing: ["city,ip"]),
                shape: .list),
            ["city", "ip", "error"])
    }

    func testColumnsAreTheSelectedPathsPlusErrorInAList() throws {
        let selection = try FieldSelection(parsing: ["ip,asn.name"])
        XCTAssertEqual(
            Columns.columns(kind: .address, format: .csv, selection: selection, shape: .list),
            ["ip", "asn.name", "error"])
        XCTAssertEqual(
            Columns.columns(kind: .address, format: .csv, selection: selection, shape: .single), ["ip", "asn.name"])
        let withError = try FieldSelection(parsing: ["error,ip"])
        XCTAssertEqual(
            Columns.columns(kind: .address, format: .csv, selection: withError, shape: .list), ["error", "ip"])
    }

    func testWithoutFieldsTheDefaultColumnsDependOnKindAndFormat() {
        XCTAssertEqual(
            Columns.columns(kind: .address, format: .csv, selection: nil, shape: .single), Columns.addressCSV)
        XCTAssertEqual(
            Columns.columns(kind: .address, format: .table, selection: nil, shape: .single), Columns.addressTable)
        XCTAssertEqual(Columns.columns(kind: .asn, format: .csv, selection: nil, shape: .single), Columns.asnCSV)
        XCTAssertEqual(Columns.columns(kind: .asn, format: .table, selection: nil, shape: .single), Columns.asnTable)
        XCTAssertEqual(Columns.addressCSV.first, "ip")
    }

    func testTheDefaultFormatIsJSONForOneResultAndJSONLinesForSeveral() {
        XCTAssertEqual(OutputFormat.defaultFormat(for: .single), .json)
        XCTAssertEqual(OutputFormat.defaultFormat(for: .list), .jsonl)
    }
}
#endif
