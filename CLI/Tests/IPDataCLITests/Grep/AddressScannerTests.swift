// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

import IPData

@testable import ipdata_cli

/// Addresses in arbitrary text: the forms logs write, and the look-alikes that are none.
final class AddressScannerTests: XCTestCase {
    private func matches(_ text: String, networks: Bool = false) -> [String] {
        var scanner = AddressScanner()
        scanner.includesNetworks = networks
        var found: [String] = []
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            scanner.scan(UnsafeBufferPointer(buffer)) { match in
                let written = String(decoding: buffer[match.range], as: UTF8.self)
                // A reverse-DNS name's range covers the name, which is not its address's text.
                if !written.lowercased().hasSuffix(".arpa") {
                    let address = written.split(separator: "/").first.flatMap { IPAddress($0) }
                    XCTAssertEqual(address?.unmappingIPv4, match.address, "the range points at \(written) in \(text)")
                }
                found.append(match.text)
                return match.range.upperBound
            }
        }
        return found
    }

    func testTheFormsLogsWrite() {
        let table: [(String, [String], UInt)] = [
            ("8.8.8.8", ["8.8.8.8"], #line),
            ("Accepted password for root from 203.0.113.9 port 22 ssh2", ["203.0.113.9"], #line),
            ("connect to 1.2.3.4:443 failed", ["1.2.3.4"], #line),
            ("peer [2001:db8::1]:8080 closed", ["2001:db8::1"], #line),
            ("2001:DB8:0:0::1 is canonical", ["2001:db8::1"], #line),
            ("mapped ::ffff:1.2.3.4 here", ["1.2.3.4"], #line),
            ("link fe80::1%eth0 up", ["fe80::1"], #line),
            ("quoted \"10.0.0.1\" and '192.0.2.7'", ["10.0.0.1", "192.0.2.7"], #line),
            ("(1.1.1.1),[9.9.9.9];<8.8.4.4>", ["1.1.1.1", "9.9.9.9", "8.8.4.4"], #line),
            ("Connection from 198.51.100.4.", ["198.51.100.4"], #line),
            ("the server is 2001:db8::1.", ["2001:db8::1"], #line),
            ("the server is 2001:db8::1: refused", ["2001:db8::1"], #line),
            ("ip:1.2.3.4 client=5.6.7.8", ["1.2.3.4", "5.6.7.8"], #line),
            ("dead:1.2.3.4", ["1.2.3.4"], #line),
            ("http://1.2.3.4:8080/path and https://[2001:db8::2]/x", ["1.2.3.4", "2001:db8::2"], #line),
            ("1.2.3.4,5.6.7.8", ["1.2.3.4", "5.6.7.8"], #line),
            ("::1 and 127.0.0.1", ["::1", "127.0.0.1"], #line),
            ("x=::ffff:1.2.3.4:80", ["1.2.3.4"], #line),
            ("a\t10.0.0.1\tb", ["10.0.0.1"], #line),
            ("GET /8.8.8.8?fields=ip HTTP/1.1", ["8.8.8.8"], #line),
            ("Mozilla/5.0 Chrome/119.0.0.0 Safari/537.36 from 1.2.3.4", ["1.2.3.4"], #line),
        ]
        for (text, expected, line) in table {
            XCTAssertEqual(matches(text), expected, text, line: line)
        }
    }

    func testWhatIsNoAddress() {
        let table: [(String, UInt)] = [
            ("version 1.2.3.4.5", #line),
            ("5.1.2.3.4 is a version", #line),
            ("256.1.2.3", #line),
            ("1.2.3.256", #line),
            ("010.1.1.1 is ambiguous", #line),
            ("1.2.3", #line),
            ("2026.11.30 and 30.11.2026", #line),
            ("at 18:55:55 and 18:55:55.123", #line),
            ("mac 00:1a:2b:3c:4d:5e", #line),
            ("mac 00-1A-2B-3C-4D-5E", #line),
            ("std::vector and Foo :: bar", #line),
            ("v1.2.3.4 and x.1.2.3.4 and 1.2.3.4x", #line),
            ("build_1.2.3.4", #line),
            ("Chrome/119.0.0.0 and libfoo/1.2.3.4", #line),
            ("1.2.3.4.example.com", #line),
            ("2001:db8::1::2", #line),
            ("deadbeef cafe 123456 1e10", #line),
            ("", #line),
        ]
        for (text, line) in table {
            XCTAssertEqual(matches(text), [], text, line: line)
        }
    }

    func testNetworks() {
        XCTAssertEqual(matches("block 10.0.0.0/8 and 2001:db8::/32", networks: true), ["10.0.0.0/8", "2001:db8::/32"])
        XCTAssertEqual(matches("block 10.0.0.0/8 and 2001:db8::/32"), ["10.0.0.0", "2001:db8::"])
        XCTAssertEqual(matches("path /1.2.3.4/x", networks: true), ["1.2.3.4"])
    }

    /// A network written with host bits set is printed as the network it stands for, which
    /// `ipdata bulk` reads; without `--cidrs`, as the address.
    func testANetworkWithHostBitsSetIsItsNetwork() {
        XCTAssertEqual(
            matches("inet 10.1.2.3/24 and 10.0.0.1/8, 2001:db8::1/32 and 192.0.2.255/31", networks: true),
            ["10.1.2.0/24", "10.0.0.0/8", "2001:db8::/32", "192.0.2.254/31"])
        XCTAssertEqual(matches("inet 10.1.2.3/24", networks: false), ["10.1.2.3"])
        XCTAssertEqual(matches("10.1.2.3/32 and 10.1.2.3/0", networks: true), ["10.1.2.3/32", "0.0.0.0/0"])
        XCTAssertEqual(
            matches("10.0.0.0/33 10.0.0.0/08 10.0.0.0/ 10.0.0.0/8x ::ffff:1.2.3.0/120", networks: true),
            ["10.0.0.0", "10.0.0.0", "10.0.0.0", "10.0.0.0", "1.2.3.0"])
    }

    /// An address that is a part of a URL's path, or its host, is found however the path goes
    /// on; a product's version after its name is still none.
    func testAnAddressInAURLPathIsFoundAndAVersionIsNot() {
        let table: [(String, [String], UInt)] = [
            ("GET https://api.ipdata.co/8.8.8.8 HTTP/1.1", ["8.8.8.8"], #line),
            ("GET /v1/lookup/8.8.8.8/json HTTP/1.1", ["8.8.8.8"], #line),
            ("GET /ip/2606:4700::1111/asn HTTP/2.0", ["2606:4700::1111"], #line),
            ("http://example.com:8080/geo/1.1.1.1?fields=ip", ["1.1.1.1"], #line),
            ("http://[2001:db8::1]:8080/whois/9.9.9.9", ["2001:db8::1", "9.9.9.9"], #line),
            ("\"https://api.ipdata.co/v1/203.0.113.9/threat\"", ["203.0.113.9"], #line),
            (
                "TCP_MISS/200 812 GET http://api.ipdata.co/8.8.4.4 - HIER_DIRECT/104.18.6.233 -",
                ["8.8.4.4", "104.18.6.233"], #line
            ),
            ("Mozilla/5.0 (X11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36", [], #line),
            ("\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\"", [], #line),
            ("YaBrowser/23.9.1.0 Edg/120.0.0.0 OPR/105.0.0.0", [], #line),
            ("ua=Chrome/119.0.0.0", [], #line),
        ]
        for (text, expected, line) in table {
            XCTAssertEqual(matches(text), expected, text, line: line)
        }
    }

    /// A reverse-DNS name is the address it names, in order, or no address at all.
    func testAReverseDNSNameIsTheAddressItNames() {
        let table: [(String, [String], UInt)] = [
            ("4.3.2.1.in-addr.arpa. PTR host", ["1.2.3.4"], #line),
            ("9.113.0.203.IN-ADDR.ARPA", ["203.0.113.9"], #line),
            (
                "b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.0.0.1.2.3.4.ip6.arpa.",
                ["4321:0:1:2:3:4:567:89ab"], #line
            ),
            ("2.1.in-addr.arpa is a zone, 5.4.3.2.1.in-addr.arpa no name, 256.2.1.1.in-addr.arpa", [], #line),
            ("4.3.2.1.in-addr.arpanet 4.3.2.1.in-addr.arpa-x", [], #line),
            ("1.0.0.0.ip6.arpa", [], #line),
        ]
        for (text, expected, line) in table {
            XCTAssertEqual(matches(text), expected, text, line: line)
        }
    }

    /// A token that goes on past what reads as an address is none, not a prefix of itself.
    func testAnIPv6TokenThatGoesOnWithALetterIsNoAddress() {
        XCTAssertEqual(matches("bad 2a01:4f8::g1 and 2001:db8::zz"), [])
        XCTAssertEqual(
            matches("ok 2a01:4f8::1 and 2001:db8::1: refused, ip:1.2.3.4:http"),
            ["2a01:4f8::1", "2001:db8::1", "1.2.3.4"])
    }

    func testTheScanGoesOnWhereTheCallerSays() {
        var found: [String] = []
        Array("1.1.1.1 2.2.2.2\n3.3.3.3 4.4.4.4".utf8).withUnsafeBufferPointer { buffer in
            AddressScanner().scan(buffer) { match in
                found.append(match.text)
                // Past the line: the next line's first address comes next.
                return buffer[match.range.upperBound...].firstIndex(of: 10).map { $0 + 1 } ?? buffer.count
            }
        }
        XCTAssertEqual(found, ["1.1.1.1", "3.3.3.3"])
    }

    func testAMatchCanStopTheScan() {
        var scanner = AddressScanner()
        var found = 0
        Array("1.1.1.1 2.2.2.2 3.3.3.3".utf8).withUnsafeBufferPointer { buffer in
            scanner.includesNetworks = false
            scanner.scan(buffer) { _ in
                found += 1
                return nil
            }
        }
        XCTAssertEqual(found, 1)
    }
}
#endif
