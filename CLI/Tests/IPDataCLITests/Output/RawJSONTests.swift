// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The API's bytes, made one line and given their address.
final class RawJSONTests: XCTestCase {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    func testCompactingRemovesOnlyTheWhitespaceBetweenTokens() {
        let json = Data("{\n\t\"city\": \"San Francisco\",\n  \"q\": \"a \\\" b\\n\",\r\n  \"n\": [1, 2]\n}".utf8)
        XCTAssertEqual(text(RawJSON.compacted(json)), #"{"city":"San Francisco","q":"a \" b\n","n":[1,2]}"#)
        // A bulk answer's element is one line with spaces: it is compacted too, its strings kept.
        let oneLine = Data(#"{"ip": "8.8.8.8", "org": "A, B: \"C\"", "n": 1.50}"#.utf8)
        XCTAssertEqual(text(RawJSON.compacted(oneLine)), #"{"ip":"8.8.8.8","org":"A, B: \"C\"","n":1.50}"#)
        let compact = Data(#"{"ip":"8.8.8.8"}"#.utf8)
        XCTAssertEqual(RawJSON.compacted(compact), compact)
        // A string that ends in an escaped backslash ends at the quote after it; one left open
        // runs to the end, as it is.
        let backslash = Data(#"{"path": "C:\\", "q" : "a b"}"#.utf8)
        XCTAssertEqual(text(RawJSON.compacted(backslash)), #"{"path":"C:\\","q":"a b"}"#)
        XCTAssertEqual(text(RawJSON.compacted(Data(#"{"a": "b c"#.utf8))), #"{"a":"b c"#)
    }

    func testPrettyPrintingIndentsTwoSpacesALevelAndKeepsTheTokens() {
        let json = Data(#"{"ip": "8.8.8.8","a":[],"b":{ },"c":[1,{"d":"x, y: {z}"}],"e":-1.50e3}"#.utf8)
        XCTAssertEqual(
            text(RawJSON.prettyPrinted(json)),
            """
            {
              "ip": "8.8.8.8",
              "a": [],
              "b": {},
              "c": [
                1,
                {
                  "d": "x, y: {z}"
                }
              ],
              "e": -1.50e3
            }
            """)
        XCTAssertEqual(
            text(RawJSON.prettyPrinted(Data(#"{"a":[1]}"#.utf8), indent: "  ")), "{\n    \"a\": [\n      1\n    ]\n  }")
        XCTAssertEqual(text(RawJSON.prettyPrinted(Data("[]".utf8))), "[]")
    }

    func testTheAddressIsAddedAsTheFirstMember() {
        XCTAssertEqual(
            text(RawJSON.withAddress(Data(#"{"country_code": "US"}"#.utf8), ip: "8.8.8.8")),
            #"{"ip":"8.8.8.8","country_code": "US"}"#)
        XCTAssertEqual(text(RawJSON.withAddress(Data(" { } ".utf8), ip: "::1")), #" {"ip":"::1" } "#)
        XCTAssertEqual(text(RawJSON.withAddress(Data("[1]".utf8), ip: "::1")), "[1]", "not an object")
    }

    /// A record resolved from a name: `"host"` first, every byte of the API's after it as it was.
    func testAFirstMemberKeepsEveryByteAfterIt() {
        let json = Data("{\n  \"ip\": \"8.8.8.8\",\r\n  \"org\": \"A, \\\"B\\\"\" ,\"n\":1.50e3}".utf8)
        let named = RawJSON.withFirstMember(json, name: "host", value: "dns.\"google\"")
        let member = #"{"host":"dns.\"google\"","#
        XCTAssertEqual(text(named.prefix(member.utf8.count)), member)
        XCTAssertEqual(named.dropFirst(member.utf8.count), json.dropFirst())
        let empty = RawJSON.withFirstMember(Data(" { }".utf8), name: "host", value: "a.test")
        XCTAssertEqual(text(empty), #" {"host":"a.test" }"#)
        XCTAssertEqual(RawJSON.withFirstMember(Data("[1]".utf8), name: "host", value: "a.test"), Data("[1]".utf8))
    }
}
#endif
