import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPAddress.scope`, the one rule for what the API looks up, pinned row by row against the IANA
/// IPv4 and IPv6 Special-Purpose Address Registries (and the multicast and IPv6 address space
/// registries), with the first and last address of each block and the addresses just outside.
final class AddressScopeTests: XCTestCase {
    private func assertScopes(_ table: [(String, IPAddress.Scope)], file: StaticString = #filePath, line: UInt = #line)
    {
        for (text, scope) in table {
            XCTAssertEqual(IPAddress(text)?.scope, scope, text, file: file, line: line)
        }
    }

    func testIPv4SpecialPurposeRegistryRows() {
        assertScopes([
            // 0.0.0.0/8 "this network" (and 0.0.0.0/32 "this host").
            ("0.0.0.0", .private), ("0.255.255.255", .private), ("1.0.0.0", .public),
            // 10.0.0.0/8 private use.
            ("9.255.255.255", .public), ("10.0.0.0", .private), ("10.255.255.255", .private), ("11.0.0.0", .public),
            // 100.64.0.0/10 shared address space (carrier-grade NAT).
            ("100.63.255.255", .public), ("100.64.0.0", .reserved), ("100.127.255.255", .reserved),
            ("100.128.0.0", .public),
            // 127.0.0.0/8 loopback.
            ("126.255.255.255", .public), ("127.0.0.1", .private), ("127.255.255.255", .private),
            ("128.0.0.0", .public),
            // 169.254.0.0/16 link-local.
            ("169.253.255.255", .public), ("169.254.0.0", .private), ("169.254.255.255", .private),
            ("169.255.0.0", .public),
            // 172.16.0.0/12 private use.
            ("172.15.255.255", .public), ("172.16.0.0", .private), ("172.31.255.255", .private),
            ("172.32.0.0", .public),
            // 192.0.0.0/24 IETF protocol assignments, with 192.0.0.0/29, 192.0.0.8, 192.0.0.170/31
            // in it; 192.0.0.9 (PCP anycast) and 192.0.0.10 (TURN anycast) are globally reachable.
            ("191.255.255.255", .public), ("192.0.0.0", .private), ("192.0.0.7", .private), ("192.0.0.8", .private),
            ("192.0.0.9", .public), ("192.0.0.10", .public), ("192.0.0.11", .private), ("192.0.0.170", .private),
            ("192.0.0.171", .private), ("192.0.0.255", .private), ("192.0.1.0", .public),
            // 192.0.2.0/24 documentation (TEST-NET-1).
            ("192.0.2.0", .private), ("192.0.2.255", .private), ("192.0.3.0", .public),
            // 192.31.196.0/24 AS112-v4 and 192.52.193.0/24 AMT: globally reachable.
            ("192.31.196.1", .public), ("192.52.193.1", .public),
            // 192.88.99.0/24 deprecated 6to4 relay anycast: routed as unicast.
            ("192.88.99.1", .public),
            // 192.168.0.0/16 private use.
            ("192.167.255.255", .public), ("192.168.0.0", .private), ("192.168.255.255", .private),
            ("192.169.0.0", .public),
            // 192.175.48.0/24 AS112 direct delegation: globally reachable.
            ("192.175.48.1", .public),
            // 198.18.0.0/15 benchmarking (RFC 2544).
            ("198.17.255.255", .public), ("198.18.0.0", .private), ("198.19.255.255", .private),
            ("198.20.0.0", .public),
            // 198.51.100.0/24 documentation (TEST-NET-2).
            ("198.51.99.255", .public), ("198.51.100.0", .private), ("198.51.100.255", .private),
            ("198.51.101.0", .public),
            // 203.0.113.0/24 documentation (TEST-NET-3).
            ("203.0.112.255", .public), ("203.0.113.0", .private), ("203.0.113.255", .private),
            ("203.0.114.0", .public),
            // 224.0.0.0/4 multicast (its own registry).
            ("223.255.255.255", .public), ("224.0.0.0", .reserved), ("224.0.0.1", .reserved),
            ("239.255.255.255", .reserved),
            // 240.0.0.0/4 reserved, and 255.255.255.255/32 limited broadcast.
            ("240.0.0.0", .reserved), ("255.255.255.254", .reserved), ("255.255.255.255", .reserved),
            // Ordinary unicast.
            ("8.8.8.8", .public), ("1.1.1.1", .public),
        ])
    }

    func testIPv6SpecialPurposeRegistryRows() {
        assertScopes([
            // ::1/128 loopback, ::/128 unspecified.
            ("::1", .private), ("::", .private),
            // ::/96 IPv4-compatible (deprecated) and the rest of ::/8: outside 2000::/3.
            ("::1.2.3.4", .reserved), ("::2", .reserved), ("::8.8.8.8", .reserved),
            // ::ffff:0:0/96 IPv4-mapped: the scope of the IPv4 address.
            ("::ffff:8.8.8.8", .public), ("::ffff:10.0.0.1", .private), ("::ffff:127.0.0.1", .private),
            ("::ffff:224.0.0.1", .reserved), ("::ffff:198.18.0.1", .private),
            // 64:ff9b::/96 IPv4-IPv6 translation: globally reachable; 64:ff9b:1::/48 local use.
            ("64:ff9b::808:808", .public), ("64:ff9b::ffff:ffff", .public), ("64:ff9b::1:0:0", .reserved),
            ("64:ff9b:1::1", .private), ("64:ff9b:1:ffff:ffff:ffff:ffff:ffff", .private), ("64:ff9b:2::1", .reserved),
            // 100::/64 discard-only.
            ("100::", .private), ("100::ffff:ffff:ffff:ffff", .private), ("100:0:0:1::", .reserved),
            // 2001::/23 IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48,
            // ORCHID 2001:10::/28; the globally reachable blocks inside it.
            ("2001::", .private), ("2001::1", .private), ("2001:0:ffff:ffff:ffff:ffff:ffff:ffff", .private),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", .private),
            ("2001:1::", .private), ("2001:1::1", .public), ("2001:1::2", .public), ("2001:1::3", .public),
            ("2001:1::4", .private), ("2001:2::1", .private), ("2001:2:0:ffff::1", .private),
            ("2001:3::", .public), ("2001:3:ffff::1", .public), ("2001:4:112::", .public),
            ("2001:4:112:ffff::1", .public), ("2001:4:113::1", .private), ("2001:10::1", .private),
            ("2001:1f:ffff::1", .private), ("2001:20::", .public), ("2001:2f:ffff::1", .public),
            ("2001:30::", .public), ("2001:3f:ffff::1", .public), ("2001:40::1", .private),
            ("2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", .private), ("2001:200::", .public),
            // 2001:db8::/32 and 3fff::/20 documentation.
            ("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", .public), ("2001:db8::", .private),
            ("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", .private), ("2001:db9::", .public),
            ("3ffe:ffff::1", .public), ("3fff::", .private), ("3fff:fff:ffff::1", .private), ("3fff:1000::", .public),
            // 2002::/16 6to4 and 2620:4f:8000::/48 AS112: in the global unicast space.
            ("2002:c000:204::1", .public), ("2620:4f:8000::1", .public),
            // 2000::/3 global unicast, and its edges.
            ("1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .reserved), ("2000::", .public),
            ("2606:4700::1111", .public), ("2001:4860:4860::8888", .public),
            ("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .public), ("4000::", .reserved),
            // 5f00::/16 segment routing SIDs: outside 2000::/3.
            ("5f00::1", .reserved),
            // fc00::/7 unique local, fe80::/10 link-local, fec0::/10 the old site-local.
            ("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .reserved), ("fc00::", .private), ("fd12:3456::1", .private),
            ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .private), ("fe00::", .reserved), ("fe80::", .private),
            ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .private), ("fec0::1", .private),
            ("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .private),
            // ff00::/8 multicast.
            ("ff00::", .reserved), ("ff02::1", .reserved), ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .reserved),
        ])
    }
}

/// `LookupStreamOptions.sendsNonPublicAddresses`: with it false, the addresses the API refuses
/// are answered in their place with its refusal, and never sent.
final class NonPublicAddressStreamTests: MockedClientTestCase {
    private func sentAddresses() throws -> [String] {
        try sent.flatMap { request -> [String] in
            guard request.url.path == "/bulk" else { return [String(request.url.path.dropFirst())] }
            return try XCTUnwrap(JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String])
        }
    }

    func testNonPublicAddressesAreAnsweredWithTheAPIsRefusalWithoutARequest() async throws {
        answerLikeTheAPI()
        let publicOnes = (0..<150).map { "8.8.\($0 / 256).\($0 % 256)" }
        let nonPublic = ["10.0.0.1", "127.0.0.1", "224.0.0.1", "198.18.0.1", "2001::1", "::1.2.3.4", "FE80::1"]
        var ips: [String] = []
        for (index, ip) in publicOnes.enumerated() {
            ips.append(ip)
            if index % 20 == 0 { ips.append(nonPublic[index / 20 % nonPublic.count]) }
        }
        var options = LookupStreamOptions()
        options.sendsNonPublicAddresses = false
        let results = try await client.lookupAll(ips, options: options)
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(try sentAddresses().sorted(), publicOnes.sorted())
        XCTAssertEqual(sent.count, 2, "150 public addresses in full chunks of 100")
        let refusals = Dictionary(
            results.compactMap { result in result.error.map { (result.ip, $0.description) } },
            uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(
            refusals,
            [
                "10.0.0.1": "Bad Request: 10.0.0.1 is a private IP address",
                "127.0.0.1": "Bad Request: 127.0.0.1 is a private IP address",
                "224.0.0.1": "Bad Request: 224.0.0.1 is a reserved IP address.",
                "198.18.0.1": "Bad Request: 198.18.0.1 is a private IP address",
                "2001::1": "Bad Request: 2001::1 is a private IP address",
                "::1.2.3.4": "Bad Request: ::1.2.3.4 is a reserved IP address.",
                "FE80::1": "Bad Request: FE80::1 is a private IP address",
            ])
        XCTAssertTrue(results.allSatisfy { !$0.isRequestFailure })
    }

    func testByDefaultNonPublicAddressesAreSent() async throws {
        answerLikeTheAPI()
        let results = try await client.lookupAll(["8.8.8.8", "10.0.0.1"])
        XCTAssertEqual(try sentAddresses(), ["8.8.8.8", "10.0.0.1"])
        XCTAssertEqual(results.last?.error?.description, "Bad Request: 10.0.0.1 is a private IP address")
    }
}
