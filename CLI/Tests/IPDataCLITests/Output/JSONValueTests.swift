// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// Results as JSON: the API's keys from the library's models, dotted paths, the parser and the
/// writer.
final class JSONValueTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Data(text.utf8))
    }

    private func lookup(_ json: String) throws -> IPResponse {
        try JSONDecoder().decode(IPResponse.self, from: Data(json.utf8))
    }

    func testAResultEncodesWithTheAPIsSnakeCaseKeys() throws {
        let response = try lookup(
            #"{"ip": "1.2.3.4", "country_name": "Australia", "asn": {"name": "Example"}, "threat": {"is_tor": true}}"#)
        let record = try Record(encoding: response, selection: nil)
        XCTAssertEqual(record["country_name"], .string("Australia"))
        XCTAssertEqual(record.value(at: "asn.name"), .string("Example"))
        XCTAssertEqual(record.value(at: "threat.is_tor"), .bool(true))
        XCTAssertNil(record["countryName"])
    }

    func testASelectionKeepsTheSelectedTopLevelObjectsWhole() throws {
        let response = try lookup(#"{"ip": "1.2.3.4", "city": "X", "asn": {"name": "Example", "asn": "AS1"}}"#)
        let record = try Record(encoding: response, selection: FieldSelection(parsing: ["ip,asn.name"]))
        XCTAssertEqual(Set(record.keys), ["ip", "asn"])
        XCTAssertEqual(record["asn"], .object(["name": .string("Example"), "asn": .string("AS1")]))
    }

    func testADottedPathWalksObjectsAndArrays() throws {
        let value = try parse(#"{"languages": [{"name": "English"}, {"name": "Deutsch"}], "a": {"b": {"c": 1}}}"#)
        XCTAssertEqual(value.value(at: ["languages", "1", "name"]), .string("Deutsch"))
        XCTAssertEqual(value.value(at: ["a", "b", "c"]), .integer(1))
        XCTAssertEqual(value.value(at: []), value)
        XCTAssertNil(value.value(at: ["languages", "2"]))
        XCTAssertNil(value.value(at: ["languages", "name"]))
        XCTAssertNil(value.value(at: ["a", "b", "c", "d"]))
        XCTAssertNil(value.value(at: ["missing"]))
    }

    func testTheParserReadsEveryKindOfValue() throws {
        XCTAssertEqual(
            try parse(
                #" {"s": "x", "i": -12, "d": 1.5, "e": 2e3, "t": true, "f": false, "n": null, "a": [], "o": {}} "#),
            .object([
                "s": .string("x"), "i": .integer(-12), "d": .number(1.5), "e": .number(2000), "t": .bool(true),
                "f": .bool(false), "n": .null, "a": .array([]), "o": .object([:]),
            ]))
    }

    func testTheParserReadsEscapes() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\n\t\r\b\f""#), .string("a\"b\\c/d\n\t\r\u{8}\u{C}"))
        XCTAssertEqual(try parse(#""\u00e9\u4e2d""#), .string("é中"))
        XCTAssertEqual(try parse(#""\ud83c\uddfa\ud83c\uddf8""#), .string("🇺🇸"))
        XCTAssertEqual(try parse("\"🇺🇸 raw\""), .string("🇺🇸 raw"))
    }

    func testTheParserRefusesWhatIsNotJSON() {
        for text in ["", "{", "[1,", #"{"a" 1}"#, "tru", #""open"#, "1 2", #""\x""#, "{\"a\":1,}", "nul"] {
            XCTAssertThrowsError(try parse(text), text)
        }
    }

    func testTheLastOfARepeatedKeyWinsAndATextIsRepairedNotRefused() throws {
        XCTAssertEqual(try parse(#"{"ip": "a", "ip": "b"}"#), .object(["ip": .string("b")]))
        XCTAssertEqual(try parse("[\"\\ud800\", \"a\tb\"]"), .array([.string("\u{FFFD}"), .string("a\tb")]))
    }

    func testTheParserReadsNestingAsDeepAsJSONSerializationDoes() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        var value = try parse(text)
        var levels = 1
        while case .array(let elements) = value, let first = elements.first {
            value = first
            levels += 1
        }
        XCTAssertEqual(levels, depth)
        XCTAssertNoThrow(
            try parse(
                #"{"a": "# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"))
    }

    func testTheParserRefusesDeeperNestingInsteadOfRunningOutOfStack() {
        // 200 KB of brackets: without a limit, one call per level ends in a segmentation fault.
        for text in [
            String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000),
            String(repeating: "[", count: JSONParser.maximumDepth + 1),
        ] {
            XCTAssertThrowsError(try parse(text)) { error in
                guard let malformed = error as? JSONParser.Malformed else { return XCTFail("\(error)") }
                XCTAssertTrue(malformed.isTooDeep)
                XCTAssertEqual(
                    malformed.description, "JSON nested more than 512 levels deep (at byte \(malformed.offset))")
            }
        }
    }

    func testTheWriterEscapesWhatJSONRequires() {
        XCTAssertEqual(JSONValue.string("a\"b\\c\n\u{1}/é").jsonText(), #""a\"b\\c\n\u0001/é""#)
    }

    func testWrittenJSONReadsBack() throws {
        let value = JSONValue.object([
            "list": .array([.integer(1), .number(0.1), .null, .bool(true)]), "text": .string("x\ty \"z\" 🇺🇸"),
            "nested": .object(["empty": .object([:])]),
        ])
        XCTAssertEqual(try parse(value.jsonText()), value)
        XCTAssertEqual(try parse(value.jsonText(pretty: true)), value)
    }

    func testCellTextIsPlainForScalarsAndJSONForContainers() {
        XCTAssertEqual(JSONValue.string("a,b").cellText, "a,b")
        XCTAssertEqual(JSONValue.integer(7).cellText, "7")
        XCTAssertEqual(JSONValue.number(-122.0838).cellText, "-122.0838")
        XCTAssertEqual(JSONValue.bool(true).cellText, "true")
        XCTAssertEqual(JSONValue.null.cellText, "")
        XCTAssertEqual(JSONValue.array([.string("a")]).cellText, #"["a"]"#)
    }

    func testFieldTextIsUnquotedTextOrPrettyJSON() {
        XCTAssertEqual(JSONValue.string("United States").fieldText, "United States")
        XCTAssertEqual(JSONValue.bool(false).fieldText, "false")
        XCTAssertEqual(JSONValue.object(["name": .string("Google LLC")]).fieldText, "{\n  \"name\": \"Google LLC\"\n}")
    }
}
#endif
