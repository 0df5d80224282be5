// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The pieces `ipdata enrich` shapes SIEM records with, each on its own: address keys with dots
/// and escaped dots, members merged into a JSON text byte for byte, logfmt's quoting, Zeek's
/// header and cells, and ECS's threat enrichment.
final class SIEMShapesTests: XCTestCase {
    // MARK: AddressKey

    func testADottedKeyStepsIntoObjectsAndAnEscapedDotIsPartOfAName() {
        XCTAssertEqual(AddressKey("source.ip").steps, ["source", "ip"])
        XCTAssertEqual(AddressKey("id\\.orig_h").steps, ["id.orig_h"])
        XCTAssertEqual(AddressKey("a\\.b.c").steps, ["a.b", "c"])
        XCTAssertEqual(AddressKey.list("src_ip, dest_ip,src_ip").map(\.written), ["src_ip", "dest_ip"])
        let nested = JSONValue.object(["source": .object(["ip": .string("1.2.3.4")])])
        XCTAssertEqual(AddressKey("source.ip").value(in: nested), .string("1.2.3.4"))
        // A flat key with a dot in its name, as Zeek's JSON logs write them, is found either way.
        let flat = JSONValue.object(["id.orig_h": .string("5.6.7.8")])
        XCTAssertEqual(AddressKey("id.orig_h").value(in: flat), .string("5.6.7.8"))
        XCTAssertEqual(AddressKey("id\\.orig_h").value(in: flat), .string("5.6.7.8"))
        // An escaped dot is never a step into an object.
        let object = JSONValue.object(["id": .object(["orig_h": .string("9.9.9.9")])])
        XCTAssertEqual(AddressKey("id.orig_h").value(in: object), .string("9.9.9.9"))
        XCTAssertNil(AddressKey("id\\.orig_h").value(in: object))
        XCTAssertEqual(AddressKey("a\\.b.c").members(in: .object(["a.b": .object(["c": .string("x")])])), ["a.b", "c"])
    }

    func testKeysMapToTheirECSSides() {
        XCTAssertEqual(AddressKey("source.ip").ecsSide, "source")
        XCTAssertEqual(AddressKey("src_ip").ecsSide, "source")
        XCTAssertEqual(AddressKey("dest_ip").ecsSide, "destination")
        XCTAssertEqual(AddressKey("destination.ip").ecsSide, "destination")
        XCTAssertEqual(AddressKey("client.ip").ecsSide, "client")
        XCTAssertEqual(AddressKey("id.resp_h").ecsSide, "destination")
        XCTAssertNil(AddressKey("note").ecsSide)
    }

    // MARK: JSONLayout

    private func merged(_ text: String, _ additions: [String: JSONValue]) -> String? {
        JSONLayout(Array(text.utf8))?.merging(additions).map { String(decoding: $0, as: UTF8.self) }
    }

    func testMembersAreAddedInsideTheObjectsTheTextHasEveryByteKept() {
        let text = #"{ "source" : { "ip" : "1.2.3.4" } , "threat": {"enrichments": [ {"a":1} ]}, "n": 1 }"#
        let additions: [String: JSONValue] = [
            "source": .object(["ip": .string("1.2.3.4"), "geo": .object(["country_iso_code": .string("US")])]),
            "threat": .object(["enrichments": .array([.object(["b": .integer(2)])])]),
            "tags": .array([.string("x")]),
        ]
        XCTAssertEqual(
            merged(text, additions),
            #"{ "source" : { "ip" : "1.2.3.4" ,"geo":{"country_iso_code":"US"}} , "threat": {"enrichments": [ {"a":1} ,{"b":2}]}, "n": 1 ,"tags":["x"]}"#
        )
        XCTAssertEqual(merged("{}", ["a": .integer(1)]), #"{"a":1}"#)
        XCTAssertEqual(merged("{ }", ["a": .object([:])]), #"{ "a":{}}"#)
        // A different value of the same name comes after the text's own, which readers keep.
        XCTAssertEqual(merged(#"{"ipdata":"x"}"#, ["ipdata": .integer(1)]), #"{"ipdata":"x","ipdata":1}"#)
        // Names with escapes are read as JSON reads them.
        XCTAssertEqual(
            merged(#"{"sour\u0063e":{}}"#, ["source": .object(["ip": .string("1")])]), #"{"sour\u0063e":{"ip":"1"}}"#)
        XCTAssertNil(merged("[1]", ["a": .integer(1)]))
        XCTAssertNil(JSONLayout(Array(#"{"a":"#.utf8)))
    }

    // MARK: logfmt

    func testLogfmtQuotesWhatNeedsQuotesAndReadsQuotedValues() {
        XCTAssertEqual(LogfmtText.quoted("US"), "US")
        XCTAssertEqual(LogfmtText.quoted("Google LLC"), #""Google LLC""#)
        XCTAssertEqual(LogfmtText.quoted("a=b"), #""a=b""#)
        XCTAssertEqual(LogfmtText.quoted(#"say "hi" \ bye"#), #""say \"hi\" \\ bye""#)
        XCTAssertEqual(LogfmtText.quoted("a\nb"), #""a\nb""#)
        XCTAssertEqual(LogfmtText.quoted(""), #""""#)
        let line = Array(#"ts=1 msg="from 9.9.9.9 \"x\"" src=1.2.3.4 dst="5.6.7.8" flag"#.utf8)[...]
        XCTAssertEqual(LogfmtText.value(of: "src", in: line), "1.2.3.4")
        XCTAssertEqual(LogfmtText.value(of: "dst", in: line), "5.6.7.8")
        XCTAssertEqual(LogfmtText.value(of: "msg", in: line), #"from 9.9.9.9 "x""#)
        XCTAssertNil(LogfmtText.value(of: "9.9.9.9", in: line))
    }

    // MARK: Zeek

    func testZeekHeaderLinesAreReadAndCellsWrittenAsZeekWritesThem() {
        var header = ZeekHeader()
        header.read(Array("#separator \\x09".utf8)[...])
        header.read(Array("#set_separator\t,".utf8)[...])
        header.read(Array("#empty_field\t(empty)".utf8)[...])
        header.read(Array("#unset_field\t-".utf8)[...])
        header.read(Array("#fields\tts\tid.orig_h\tid.resp_h".utf8)[...])
        XCTAssertEqual(header.separator, 0x09)
        XCTAssertEqual(header.fields, ["ts", "id.orig_h", "id.resp_h"])
        XCTAssertEqual(header.cell(nil), "-")
        XCTAssertEqual(header.cell(.null), "-")
        XCTAssertEqual(header.cell(.string("")), "(empty)")
        XCTAssertEqual(header.cell(.bool(true)), "T")
        XCTAssertEqual(header.cell(.number(37.386)), "37.386")
        XCTAssertEqual(header.cell(.string("a\tb\nc")), "a\\x09b\\x0ac")
        XCTAssertEqual(header.cell(.array([.string("a"), .string("b")])), "a,b")
        XCTAssertEqual(ZeekHeader.type(of: "latitude"), "double")
        XCTAssertEqual(ZeekHeader.type(of: "threat.scores.threat_score"), "count")
        XCTAssertEqual(ZeekHeader.type(of: "threat.is_tor"), "bool")
        XCTAssertEqual(ZeekHeader.type(of: "asn.name"), "string")
    }

    // MARK: ECS

    func testAFlaggedAddressGetsAThreatEnrichmentOfItsFamilyAndAnUnflaggedOneNone() throws {
        let tor = JSONValue.object(["is_tor": .bool(true), "is_threat": .bool(true), "blocklists": .array([])])
        let element = try XCTUnwrap(ECSFields.enrichment(address: "2001:db8::1", field: "source.ip", threat: tor))
        XCTAssertEqual(element.value(at: ["indicator", "type"]), .string("ipv6-addr"))
        XCTAssertEqual(element.value(at: ["indicator", "ip"]), .string("2001:db8::1"))
        XCTAssertEqual(element.value(at: ["indicator", "ipdata"]), tor)
        XCTAssertEqual(element.value(at: ["matched", "field"]), .string("source.ip"))
        let v4 = ECSFields.enrichment(address: "185.220.101.1", field: "destination.ip", threat: tor)
        XCTAssertEqual(v4?.value(at: ["indicator", "type"]), .string("ipv4-addr"))
        let clean = JSONValue.object(["is_tor": .bool(false), "blocklists": .array([])])
        XCTAssertNil(ECSFields.enrichment(address: "8.8.8.8", field: "source.ip", threat: clean))
        let hosting = JSONValue.object(["is_datacenter": .bool(true), "is_icloud_relay": .bool(true)])
        XCTAssertNil(ECSFields.enrichment(address: "8.8.8.8", field: "source.ip", threat: hosting))
        let listed = JSONValue.object(["blocklists": .array([.object(["name": .string("Spamhaus")])])])
        XCTAssertNotNil(ECSFields.enrichment(address: "8.8.8.8", field: "source.ip", threat: listed))
    }
}
#endif
