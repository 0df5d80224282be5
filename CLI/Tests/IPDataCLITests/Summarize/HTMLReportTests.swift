// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// The HTML page of `ipdata summarize --html`: what it may load, how it escapes, and its map.
final class HTMLReportTests: XCTestCase {
    private func response(_ json: String) throws -> IPResponse {
        try JSONDecoder().decode(IPResponse.self, from: Data(json.utf8))
    }

    private func page(_ summary: Summary) -> String {
        HTMLReport(summary: summary, top: 10, cost: Summary.Cost()).html()
    }

    func testThePageLoadsNothingAndForbidsLoading() throws {
        var summary = Summary()
        summary.add(address: "8.8.8.8", response: try response(#"{"ip":"8.8.8.8","country_code":"US"}"#))
        let html = page(summary)
        XCTAssertTrue(
            html.contains(
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">"#
            ))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertNil(html.range(of: #"(src|href)\s*="#, options: .regularExpression), "no attribute that loads")
        XCTAssertNil(html.range(of: #"url\("#, options: .regularExpression), "no style that loads")
        XCTAssertNil(html.range(of: "@import"))
    }

    func testAnswersTextIsEscaped() throws {
        var summary = Summary()
        let hostile = #"{"ip":"8.8.8.8","country_code":"US","asn":{"asn":"AS1","name":"<script>x</script>&\"'"}}"#
        summary.add(address: "8.8.8.8", response: try response(hostile))
        let html = page(summary)
        XCTAssertFalse(html.contains("<script>"))
        XCTAssertTrue(html.contains("AS1 &lt;script&gt;x&lt;/script&gt;&amp;&quot;&#39;"), html)
    }

    func testTheMapHasOnePathPerCountryShadedByItsCount() throws {
        var summary = Summary()
        for (code, count) in [("US", 9), ("DE", 3), ("FR", 1), ("SG", 2)] {
            for index in 0..<count {
                summary.add(
                    address: "9.0.\(code.utf8.first!).\(index)",
                    response: try response(#"{"ip":"9.9.9.9","country_code":"\#(code)"}"#))
            }
        }
        let html = page(summary)
        let lines = WorldMap.countryLines.split(separator: "\n")
        let codes = lines.map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        XCTAssertGreaterThan(codes.count, 170)
        XCTAssertEqual(Set(codes).count, codes.count, "one path per code")
        XCTAssertTrue(codes.allSatisfy { $0.count == 2 && $0 == $0.uppercased() })
        XCTAssertEqual(html.components(separatedBy: "<path class=\"country\"").count - 1, lines.count)
        XCTAssertTrue(html.contains(#"data-code="US" data-count="9" fill="\#(HTMLReport.shades[4])""#))
        XCTAssertTrue(html.contains(#"data-code="FR" data-count="1" fill="\#(HTMLReport.shades[0])""#))
        XCTAssertTrue(html.contains(#"data-code="GB" data-count="0" fill="\#(HTMLReport.emptyFill)""#))
        XCTAssertTrue(html.contains("<title>Germany (DE): 3 addresses</title>"))
        XCTAssertTrue(html.contains("Too small for the map: SG 2</p>"), "Singapore has no shape at this scale")
        XCTAssertLessThan(WorldMap.countryLines.utf8.count, 200_000, "the geometry stays small")
    }

    func testShadesGrowWithTheCount() {
        let shades = (1...1_000).map { HTMLReport.shade($0, maximum: 1_000) }
        XCTAssertEqual(shades.first, 0)
        XCTAssertEqual(shades.last, HTMLReport.shades.count - 1)
        XCTAssertEqual(shades, shades.sorted())
        XCTAssertEqual(HTMLReport.shade(1, maximum: 1), HTMLReport.shades.count - 1)
    }
}
#endif
