// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// What `--verbose` says: where the key comes from, and one line for each request.
final class VerboseOutputTests: XCTestCase {
    private let url = URL(string: "https://api.ipdata.co/8.8.8.8/asn?api-key=REDACTED")!

    func testAnAnsweredRequestIsItsMethodURLStatusAndMilliseconds() {
        let request = SentRequest(method: "GET", url: url, statusCode: 200, failure: nil, duration: 0.0123)
        XCTAssertEqual(
            RequestLog.line(for: request), "GET https://api.ipdata.co/8.8.8.8/asn?api-key=REDACTED → 200 (12 ms)")
    }

    func testARequestWithoutAnAnswerSaysWhy() {
        let request = SentRequest(
            method: "POST", url: url, statusCode: nil, failure: .networkError(URLError(.timedOut)), duration: 30)
        let line = RequestLog.line(for: request)
        XCTAssertTrue(line.hasPrefix("POST https://api.ipdata.co/8.8.8.8/asn?api-key=REDACTED → Network error: "), line)
        XCTAssertTrue(line.hasSuffix(" (URLError -1001) (30000 ms)"), line)
    }

    func testVerboseNamesEachSourceOfTheKey() {
        let file = URL(fileURLWithPath: "/x/config/ipdata/config")
        XCTAssertEqual(Configuration.KeySource.option.name, "--api-key")
        XCTAssertEqual(Configuration.KeySource.environment(overriding: nil).name, "IPDATA_API_KEY")
        XCTAssertEqual(
            Configuration.KeySource.environment(overriding: file).name,
            "IPDATA_API_KEY (which overrides /x/config/ipdata/config)")
        XCTAssertEqual(Configuration.KeySource.file(file).name, "/x/config/ipdata/config")
    }
}
#endif
