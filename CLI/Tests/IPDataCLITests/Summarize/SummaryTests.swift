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
}
#endif
