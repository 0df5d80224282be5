// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The host names `ipdata grep --names` finds in text, and those it leaves.
final class HostNameScannerTests: XCTestCase {
    private func names(_ text: String) -> [String] {
        Array(text.utf8).withUnsafeBufferPointer { line in
            HostNameScanner.names(in: line).map { found in
                XCTAssertEqual(
                    String(decoding: UnsafeBufferPointer(rebasing: line[found.range]), as: UTF8.self), found.text)
                return found.text
            }
        }
    }

    func testNamesInLogsURLsAndSentences() {
        XCTAssertEqual(names("GET https://www.example.com/a.b?x=1 HTTP/1.1"), ["www.example.com"])
        XCTAssertEqual(
            names("connect to api.ipdata.co:443 failed; retry mirror.example.org."),
            ["api.ipdata.co", "mirror.example.org"])
        XCTAssertEqual(names("\"host\":\"cdn.Example.NET\",'x.test'"), ["cdn.Example.NET", "x.test"])
        XCTAssertEqual(names("(see xn--bcher-kva.example)"), ["xn--bcher-kva.example"])
    }

    func testWhatIsNoName() {
        for text in [
            "bob@example.com", "first.last@example.com", "4.3.2.1.in-addr.arpa", "8.8.8.8", "v1.2.3", "e.g. i.e.",
            "Chrome/119.0.0.0", "café.example.com", "a_b.example.com", "localhost", "2001:db8::1", "hello world",
            "example.c", "-.-", "...",
        ] {
            XCTAssertEqual(names(text), [], text)
        }
    }
}
#endif
