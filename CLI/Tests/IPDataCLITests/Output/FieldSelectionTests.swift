// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import IPData
import XCTest

@testable import ipdata_cli

/// `-f/--fields`: what is sent as `fields=`, and what is kept.
final class FieldSelectionTests: XCTestCase {
    func testPathsKeepTheirOrderWithoutRepeats() throws {
        let selection = try FieldSelection(parsing: ["ip, city,asn.name", "ip", "threat.is_tor,,"])
        XCTAssertEqual(selection.paths, ["ip", "city", "asn.name", "threat.is_tor"])
    }

    func testTheTopLevelPartOfEachPathIsSentOnce() throws {
        let selection = try FieldSelection(parsing: ["asn.name,ip,asn.domain,threat.is_tor,threat.scores.vpn_score"])
        XCTAssertEqual(selection.topLevelNames, ["asn", "ip", "threat"])
    }

    func testAFilterKeepsOnlyTheTopLevelKeysSelected() throws {
        let selection = try FieldSelection(parsing: ["ip,asn.name"])
        let record: Record = ["ip": .string("1.1.1.1"), "city": .string("X"), "asn": .object(["name": .string("A")])]
        XCTAssertEqual(selection.filter(record), ["ip": .string("1.1.1.1"), "asn": .object(["name": .string("A")])])
    }

    func testANameTheAPIDoesNotKnowIsUnknownOnceAndADottedPathByItsFirstStep() throws {
        let selection = try FieldSelection(parsing: ["ip,contry_code,asn.nmae,foo.bar,foo,threat.is_tor,Ip"])
        XCTAssertEqual(selection.unknownNames(kind: .address, shape: .single), ["contry_code", "foo", "Ip"])
    }

    func testTheKnownNamesAreTheModelsKeys() throws {
        let address = try FieldSelection(parsing: [IPResponse.fieldNames.joined(separator: ",")])
        XCTAssertEqual(address.unknownNames(kind: .address, shape: .single), [])
        XCTAssertTrue(IPResponse.fieldNames.contains("is_satellite"))
        XCTAssertFalse(IPResponse.fieldNames.contains("message"), "only a rejected bulk slot has it")
        let asn = try FieldSelection(parsing: ["asn,name,num_ips,ipv4_prefixes,peers,city"])
        XCTAssertEqual(asn.unknownNames(kind: .asn, shape: .single), ["city"])
    }

    func testErrorIsAFieldOfAListOnly() throws {
        let selection = try FieldSelection(parsing: ["ip,error"])
        XCTAssertEqual(selection.unknownNames(kind: .address, shape: .list), [])
        XCTAssertEqual(selection.unknownNames(kind: .address, shape: .single), ["error"])
    }

    func testAnEmptySelectionIsAnError() {
        for lists in [[""], [",,"], [" "]] {
            XCTAssertThrowsError(try FieldSelection(parsing: lists)) { error in
                XCTAssertEqual(
                    (error as? UsageError)?.message, "--fields needs at least one field name, such as ip,city")
            }
        }
    }

    func testAPathWithAnEmptyStepIsAnError() {
        for path in ["asn..name", ".ip", "asn."] {
            XCTAssertThrowsError(try FieldSelection(parsing: [path])) { error in
                XCTAssertEqual(
                    (error as? UsageError)?.message,
                    "--fields: \(path) is not a field name or a dotted path such as asn.name")
            }
        }
    }
}
#endif
