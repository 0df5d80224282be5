import Foundation
import XCTest

@testable import IPData

/// The client's own JSON parser: what it reads, and what it reads as `JSONDecoder` does
/// (`DecodingFuzzTests` compares the two on thousands of mutated answers).
final class JSONNodeTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONNode {
        try JSONNode.parse(Data(text.utf8))
    }

    private func object(_ members: KeyValuePairs<String, JSONNode>) -> JSONNode {
        var object = JSONObject()
        for (key, value) in members { object.append(key, value) }
        return .object(object)
    }

    func testValuesOfEveryKind() throws {
        let rows: [(String, JSONNode)] = [
            ("null", .null), ("true", .bool(true)), ("false", .bool(false)), ("0", .integer(0)), ("-0", .integer(0)),
            ("1506", .integer(1506)), ("-122", .integer(-122)), ("37.386", .number(37.386)), ("1e3", .number(1000)),
            ("-1.5E-2", .number(-0.015)), ("9223372036854775807", .integer(Int.max)),
            ("-9223372036854775808", .integer(Int.min)), ("9223372036854775808", .number(9_223_372_036_854_775_808)),
            ("\"\"", .string("")), ("\"Mountain View\"", .string("Mountain View")), ("[]", .array([])),
            ("[1, \"a\", null]", .array([.integer(1), .string("a"), .null])), (" \n\t\r{}\n ", object([:])),
            ("{\"a\": {\"b\": [true]}}", object(["a": object(["b": .array([.bool(true)])])])),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(try parse(text), expected, text)
        }
    }

    func testEscapesAndUnicode() throws {
        let rows: [(String, String)] = [
            (#""a\"b\\c\/d""#, "a\"b\\c/d"), (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"), (#""\u00e9\u20AC""#, "é€"),
            (#""\ud83c\uddfa\ud83c\uddf8""#, "🇺🇸"), ("\"🇺🇸 café\"", "🇺🇸 café"), (#""x\u0041y""#, "xAy"),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(try parse(text), .string(expected), text)
        }
    }

    func testMembersKeepTheirOrderAndTheFirstOfARepeatedKeyWins() throws {
        guard case .object(let members) = try parse(#"{"ip": "a", "count": "1", "ip": "b"}"#) else {
            return XCTFail("not an object")
        }
        XCTAssertEqual(members.keys, ["ip", "count", "ip"])
        XCTAssertEqual(members["ip"], .string("a"), "as JSONDecoder reads a repeated key")
        XCTAssertNil(members["missing"])
    }

    /// `JSONDecoder` checks a string or a number only when a model reads it, and a lenient model
    /// then reads the field as nil; the parser reads such a value as `null`, and an object with
    /// such a key as `null` (no object), so that both ways give the same model.
    func testValuesJSONDecoderWouldNotReadAreNull() throws {
        let rows: [(String, JSONNode)] = [
            (#"{"n": 01}"#, object(["n": .null])), (#"{"n": 1.2.3}"#, object(["n": .null])),
            (#"{"n": -}"#, object(["n": .null])), (#"{"n": 1e}"#, object(["n": .null])),
            (#"{"n": 1e400}"#, object(["n": .null])), (#"{"s": "\ud800"}"#, object(["s": .null])),
            (#"{"s": "\udc00x"}"#, object(["s": .null])), (#"{"s": "\x"}"#, object(["s": .null])),
            ("{\"s\": \"a\u{01}b\"}", object(["s": .null])),
            (#"{"a": {"\ud800": 1}, "b": 2}"#, object(["a": .null, "b": .integer(2)])),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(try parse(text), expected, text)
        }
        var invalidUTF8 = Data(#"{"s": "a"#.utf8)
        invalidUTF8.append(contentsOf: [0xFF, 0xFE])
        invalidUTF8.append(contentsOf: Data(#"b", "t": "ok"}"#.utf8))
        XCTAssertEqual(try JSONNode.parse(invalidUTF8), object(["s": .null, "t": .string("ok")]))
    }

    func testTrailingCommasAndAByteOrderMarkAreAccepted() throws {
        XCTAssertEqual(try parse(#"{"a": [1, 2,],}"#), object(["a": .array([.integer(1), .integer(2)])]))
        XCTAssertEqual(try JSONNode.parse(Data([0xEF, 0xBB, 0xBF]) + Data("[true]".utf8)), .array([.bool(true)]))
    }

    func testTextThatIsNotJSONIsADataCorruptedError() {
        let rows = [
            "", "  ", "{", "[1", "{\"a\"}", "{\"a\" 1}", "{a: 1}", "[1 2]", "tru", "nul", "NaN", ".5", "+1", "\"open",
            "{\"a\": 1} x", "[] []", "<html>gateway</html>",
        ]
        for text in rows {
            XCTAssertThrowsError(try parse(text), text) { error in
                guard case DecodingError.dataCorrupted = error else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testNestingStopsAtJSONDecodersDepth() throws {
        let depth = JSONNode.maximumDepth
        XCTAssertNoThrow(try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        XCTAssertThrowsError(try parse(tooDeep))
        // A hundred thousand brackets fail at the limit instead of running the stack out.
        XCTAssertThrowsError(try parse(String(repeating: "[", count: 100_000)))
    }

    /// The client reads its answers through the parser: the models it makes are those of
    /// `JSONDecoder`, for every fixture the tests hold.
    func testEveryFixtureGivesTheModelJSONDecoderGives() throws {
        for folder in ["lookup", "threat"] {
            for file in try Fixture.files(in: folder) {
                let data = try Fixture.data(file)
                XCTAssertEqual(
                    try IPResponse(jsonData: data), try JSONDecoder().decode(IPResponse.self, from: data), file)
            }
        }
        for file in try Fixture.files(in: "bulk") {
            let data = try Fixture.data(file)
            let decoded = try JSONDecoder().decode([LenientElement<IPResponse>].self, from: data).map(\.element)
            XCTAssertEqual(try IPResponse.array(jsonData: data), decoded, file)
        }
        let asn = try Fixture.data(Fixture.asnDetail)
        XCTAssertEqual(try ASNDetail(jsonData: asn), try JSONDecoder().decode(ASNDetail.self, from: asn))
    }

    /// The API sends `count` as a string: read without the failed attempts `JSONDecoder` makes.
    func testCountSentAsAStringIsAnInteger() throws {
        let response = try IPResponse(jsonData: Data(#"{"ip": "8.8.8.8", "count": "1506"}"#.utf8))
        XCTAssertEqual(response.count, 1506)
        XCTAssertEqual(response.ip, "8.8.8.8")
    }

    func testAValueThatIsNotAnObjectIsATypeMismatch() {
        XCTAssertThrowsError(try IPResponse(jsonData: Data("[]".utf8))) { error in
            guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try IPResponse.array(jsonData: Data("{}".utf8))) { error in
            guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
        }
    }
}
