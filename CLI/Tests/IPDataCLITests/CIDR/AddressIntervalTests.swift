// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// The range arithmetic of `ipdata cidr`, at the edges of each family's space, where 32- and
/// 128-bit arithmetic overflows; the random tables of `CIDRCommandTests` check the rest
/// against Python.
final class AddressIntervalTests: XCTestCase {
    private func interval(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> AddressInterval
    {
        try XCTUnwrap(AddressInterval(addressOrNetwork: text), text, file: file, line: line)
    }

    private func networks(_ interval: AddressInterval) -> [String] {
        interval.networks.map { "\($0.address)/\($0.prefixLength)" }
    }

    private func range(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String]? {
        guard case .range(let interval) = AddressInterval.rangeText(text) else { return nil }
        return networks(interval)
    }

    func testAWholeSpaceIsOneNetworkAndItsRangeEndsAtTheLastAddress() throws {
        XCTAssertEqual(try interval("0.0.0.0/0").rangeText, "0.0.0.0-255.255.255.255")
        XCTAssertEqual(try interval("::/0").rangeText, "::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")
        XCTAssertEqual(range("0.0.0.0-255.255.255.255"), ["0.0.0.0/0"])
        XCTAssertEqual(range("::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), ["::/0"])
        XCTAssertEqual(range("::1-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")?.count, 128)
        XCTAssertEqual(range("0.0.0.0-255.255.255.254")?.count, 32)
        XCTAssertEqual(range("0.0.0.0-255.255.255.254")?.last, "255.255.255.254/32")
    }

    func testOneAddressIsASlash32OrASlash128() throws {
        XCTAssertEqual(range("10.0.0.7-10.0.0.7"), ["10.0.0.7/32"])
        XCTAssertEqual(range("255.255.255.255-255.255.255.255"), ["255.255.255.255/32"])
        XCTAssertEqual(range("2001:db8::1-2001:db8::1"), ["2001:db8::1/128"])
        XCTAssertEqual(try interval("8.8.8.8").rangeText, "8.8.8.8-8.8.8.8")
        XCTAssertEqual(try interval("8.8.8.8/32").rangeText, "8.8.8.8-8.8.8.8")
        XCTAssertEqual(try interval("2001:db8::1/128").rangeText, "2001:db8::1-2001:db8::1")
    }

    func testAcrossTheMiddleOfIPv6sHalves() {
        XCTAssertEqual(
            range("::ffff:ffff:ffff:ffff-::1:0:0:0:0"), ["::ffff:ffff:ffff:ffff/128", "0:0:0:1::/128"])
        XCTAssertEqual(range("::-::ffff:ffff:ffff:ffff"), ["::/64"])
        XCTAssertEqual(range("::8000:0:0:0-0:0:0:1:7fff:ffff:ffff:ffff"), ["::8000:0:0:0/65", "0:0:0:1::/65"])
    }

    func testHostBitsCountAsTheirNetworkAndMappedAddressesAsIPv4() throws {
        XCTAssertEqual(try interval("10.0.0.1/8").rangeText, "10.0.0.0-10.255.255.255")
        XCTAssertEqual(try interval("2001:db8::1/32").rangeText, "2001:db8::-2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")
        XCTAssertEqual(try interval("::ffff:1.2.3.4"), try interval("1.2.3.4"))
        XCTAssertEqual(try interval("::ffff:10.1.2.3/104"), try interval("10.0.0.0/8"))
        XCTAssertEqual(try interval("::ffff:0:0/96"), try interval("0.0.0.0/0"))
        // Wider than the mapped addresses: an IPv6 network, as written.
        XCTAssertEqual(try interval("::ffff:0:0/95").rangeText, "::fffe:0:0-::ffff:255.255.255.255")
        XCTAssertEqual(range("::ffff:1.2.3.4-1.2.3.5"), ["1.2.3.4/31"])
    }

    func testWhatIsNoAddressNetworkOrRange() {
        for text in [
            "", "10.0.0.0/33", "::/129", "10.0.0.0/08", "10.0.0.0/", "/8", "10.0.0", "010.0.0.1", "host", "1.2.3.4/8/8",
        ] {
            XCTAssertNil(AddressInterval(addressOrNetwork: text), text)
        }
        let problems = [
            "10.0.0.9-10.0.0.1": "first address is after its last",
            "1.2.3.4-::1": "IPv4 and IPv6",
            "1.2.3.4-": "each end",
            "1.2.3.4-5-6": "neither a range",
            "10.0.0.0/8-10.1.0.0": "each end",
        ]
        for (text, problem) in problems {
            guard case .problem(let message) = AddressInterval.rangeText(text) else {
                XCTFail("\(text) was read")
                continue
            }
            XCTAssertTrue(message.contains(problem), "\(text): \(message)")
        }
    }

    func testMergingJoinsOverlappingAndAdjacentNetworksAndKeepsTheFamiliesApart() throws {
        let written = [
            "2001:db8::/33", "10.0.1.0/24", "10.0.0.0/24", "10.0.0.128/25", "2001:db8:8000::/33", "0.0.0.0/32",
            "255.255.255.255", "::ffff:255.255.255.254", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "10.0.3.0/24",
        ]
        let merged = AddressInterval.merged(try written.map { try interval($0) })
        XCTAssertEqual(
            merged.flatMap(networks),
            [
                "0.0.0.0/32", "10.0.0.0/23", "10.0.3.0/24", "255.255.255.254/31", "::/128", "2001:db8::/32",
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128",
            ])
        XCTAssertEqual(
            AddressInterval.merged([try interval("0.0.0.0/1"), try interval("128.0.0.0/1")]).flatMap(networks),
            ["0.0.0.0/0"])
        XCTAssertEqual(AddressInterval.merged([]), [])
    }

    func testANetworkSetFindsAddressesAtTheEdgesOfItsNetworks() throws {
        let set = NetworkSet(
            try ["10.0.0.0/8", "192.168.1.0/24", "2001:db8::/32", "255.255.255.255"].map { try interval($0) })
        let inside = [
            "10.0.0.0", "10.255.255.255", "192.168.1.77", "2001:db8::", "2001:db8:ffff::1", "::ffff:10.1.1.1",
            "255.255.255.255",
        ]
        let outside = [
            "9.255.255.255", "11.0.0.0", "192.168.0.255", "192.168.2.0", "2001:db9::", "::a00:1", "0.0.0.0", "::",
        ]
        for text in inside { XCTAssertTrue(set.contains(IPAddress(text)!), text) }
        for text in outside { XCTAssertFalse(set.contains(IPAddress(text)!), text) }
        XCTAssertFalse(NetworkSet([]).contains(IPAddress("1.1.1.1")!))
    }
}
#endif
