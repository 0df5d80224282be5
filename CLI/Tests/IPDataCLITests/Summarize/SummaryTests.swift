// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// The totals and top values of `ipdata summarize`, from answers.
final class SummaryTests: XCTestCase {
    private func response(_ json: String) throws -> IPResponse {
        try JSONDecoder().decode(IPResponse.self, from: Data(json.utf8))
    }

    private func google() throws -> IPResponse {
        try response(
            #"{"ip":"8.8.8.8","country_name":"United States","country_code":"US","#
                + #""asn":{"asn":"AS15169","name":"Google LLC","type":"hosting"},"#
                + #""threat":{"is_datacenter":true,"is_tor":false,"blocklists":[{"name":"A"},{"name":"A"}]}}"#)
    }

    private func tor() throws -> IPResponse {
        try response(
            #"{"ip":"185.220.101.1","country_name":"Germany","country_code":"DE","company":{"type":"business"},"#
                + #""threat":{"is_tor":true,"is_threat":true,"blocklists":[{"name":"A"},{"name":"B"}]}}"#)
    }

    func testTotalsTopValuesAndThreats() throws {
        var summary = Summary()
        summary.add(address: "8.8.8.8", response: try google())
        summary.add(address: "8.8.8.8", response: try google())
        summary.add(address: "185.220.101.1", response: try tor())
        summary.add(address: "10.0.0.1", response: nil)
        summary.add(address: "not an address", response: nil)
        XCTAssertEqual(summary.total, 5)
        XCTAssertEqual(summary.unique, 3)
        XCTAssertEqual(summary.publicAddresses, 3)
        XCTAssertEqual(summary.privateAddresses, 1)
        XCTAssertEqual(summary.failed, 2)
        XCTAssertEqual(Summary.top(summary.countries, 10).map(\.value), ["United States (US)", "Germany (DE)"])
        XCTAssertEqual(Summary.top(summary.networks, 10).map(\.count), [2])
        XCTAssertEqual(summary.companyTypes, ["hosting": 2, "business": 1])
        XCTAssertEqual(summary.threats, ["is_datacenter": 2, "is_tor": 1, "is_threat": 1])
        XCTAssertEqual(summary.blocklists, ["A": 3, "B": 1], "a list named twice in one answer counts once")
        XCTAssertEqual(Summary.top(["b": 2, "a": 2, "c": 3], 2).map(\.value), ["c", "a"], "ties by name")
    }

    func testTheAnswersOfAnAPIRejectionAreFailures() throws {
        var summary = Summary()
        summary.add(address: "10.0.0.1", response: try response(#"{"ip":"10.0.0.1","message":"private"}"#))
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(summary.countries, [:])
    }

    func testJSONAndTable() throws {
        var summary = Summary()
        summary.add(address: "185.220.101.1", response: try tor())
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(summary.json(top: 5).utf8)) as? [String: Any])
        XCTAssertEqual(object["total"] as? Int, 1)
        XCTAssertEqual((object["threats"] as? [String: Int])?["is_tor"], 1)
        XCTAssertEqual((object["countries"] as? [[String: Any]])?.first?["value"] as? String, "Germany (DE)")
        let table = summary.table(top: 5)
        XCTAssertTrue(table.hasPrefix("addresses  1 total, 1 unique, 1 public, 0 private\n"), table)
        XCTAssertTrue(table.contains("top countries\n  1  Germany (DE)\n"), table)
        XCTAssertTrue(table.contains("  1  is_tor\n"), table)
    }

    func testTopAddressesAreTheMostFrequentWithTheirFirstAnswer() throws {
        var summary = Summary()
        for _ in 0..<3 { summary.add(address: "185.220.101.1", response: try tor()) }
        summary.add(address: "8.8.8.8", response: nil)
        summary.add(address: "8.8.8.8", response: try google())
        summary.add(address: "10.0.0.1", response: nil)
        let top = summary.topAddresses(2)
        XCTAssertEqual(top.map(\.address), ["185.220.101.1", "8.8.8.8"])
        XCTAssertEqual(top.map(\.count), [3, 2])
        XCTAssertEqual(top[1].digest?.network, "AS15169 Google LLC", "the answer, though the first reading had none")
        XCTAssertEqual(top[0].digest?.threats, ["is_tor", "is_threat"])
        XCTAssertEqual(summary.countryCodes, ["DE": 3, "US": 1])
        let table = summary.table(top: 10)
        XCTAssertTrue(
            table.hasSuffix(
                "top addresses\n  3  185.220.101.1  DE  -                   is_tor,is_threat\n"
                    + "  2  8.8.8.8        US  AS15169 Google LLC  is_datacenter\n"
                    + "  1  10.0.0.1       -   (no answer)\n"), table)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(summary.json(top: 1).utf8)) as? [String: Any])
        let rows = try XCTUnwrap(object["top_addresses"] as? [[String: Any]])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0]["ip"] as? String, "185.220.101.1")
        XCTAssertEqual(rows[0]["country_code"] as? String, "DE")
        XCTAssertEqual(rows[0]["threats"] as? [String], ["is_tor", "is_threat"])
    }

    func testTiesAmongTopAddressesGoInNumericOrderIPv4First() {
        var summary = Summary()
        for address in ["2001:4860::1", "9.9.9.10", "9.9.9.9", "10.0.0.1"] {
            summary.add(address: address, response: nil)
        }
        XCTAssertEqual(summary.topAddresses(4).map(\.address), ["9.9.9.9", "9.9.9.10", "10.0.0.1", "2001:4860::1"])
    }

    func testAPartialSummarySaysSoOnItsFirstLine() throws {
        var summary = Summary()
        summary.add(address: "185.220.101.1", response: try tor())
        XCTAssertTrue(summary.shouldLookUp("8.8.8.8"))
        XCTAssertFalse(summary.shouldLookUp("8.8.8.8"))
        summary.add(lookedUp: "8.8.8.8", response: nil, refused: true)
        XCTAssertFalse(summary.shouldLookUp("8.8.8.8"), "a repeat after the refusal")
        summary.partialReason = "the API refused further lookups (Forbidden)"
        XCTAssertEqual(summary.notLookedUp, 3)
        XCTAssertEqual(summary.failed, 3)
        let table = summary.table(top: 5)
        XCTAssertTrue(
            table.hasPrefix(
                "partial summary: the API refused further lookups (Forbidden); 3 records were not looked up and are "
                    + "counted as without an answer\naddresses  4 total"), table)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(summary.json(top: 5).utf8)) as? [String: Any])
        XCTAssertEqual(object["partial"] as? String, "the API refused further lookups (Forbidden)")
        XCTAssertEqual(object["not_looked_up"] as? Int, 3)
        XCTAssertNil(
            (try JSONSerialization.jsonObject(with: Data(Summary().json(top: 5).utf8)) as? [String: Any])?["partial"],
            "a whole summary has no partial key")
    }
}
#endif
