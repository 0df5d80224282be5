// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// What the CLI takes for a host name to resolve, and what it leaves as text.
final class HostNameTests: XCTestCase {
    func testDottedNamesWithATopLevelDomainAndLocalhostAreNames() {
        for name in [
            "example.com", "www.example.test", "WWW.Example.COM", "a.b.c.d.example.org", "example.com.",
            "xn--bcher-kva.example", "example.xn--p1ai", "localhost", "LOCALHOST", "x1-y2.example.invalid",
            String(repeating: "a", count: 63) + ".example.com",
        ] {
            XCTAssertTrue(HostName.isHostName(name), name)
        }
    }

    func testAddressesWordsAndGarbageAreNotNames() {
        for text in [
            "", ".", "8.8.8.8", "2001:db8::1", "::ffff:1.2.3.4", "AS15169", "hello", "hello world", "example.c",
            "example.123", "-bad.example.com", "bad-.example.com", "a..example.com", "under_score.example.com",
            "example.com:443", "https://example.com", "user@example.com", "1.2.3.4.5", "10.0.0.0/8",
            "8.8.8.1-8.8.8.6", "ex ample.com", "example.com/path", "café.example.com",
            String(repeating: "a", count: 64) + ".example.com",
            String(repeating: "abcdefghi.", count: 26) + "com",
        ] {
            XCTAssertFalse(HostName.isHostName(text), text)
        }
    }
}
#endif
