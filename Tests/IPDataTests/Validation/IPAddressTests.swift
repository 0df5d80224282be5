import IPDataLibC
import XCTest

@testable import IPData

/// One rule for address text on every platform (`IPAddress`), pinned by table, and compared
/// with glibc's `inet_pton`/`inet_ntop` wherever glibc is there to compare with.
final class IPAddressTests: XCTestCase {
    /// Leading zeros: Darwin's `inet_pton` reads `010.1.1.1` as 10.1.1.1, glibc's refuses it.
    /// The rule refuses it everywhere, in IPv4 and in an IPv6 address's IPv4 tail alike.
    func testIPv4PartsWithLeadingZerosAreRefusedOnEveryPlatform() {
        let table: [(text: String, canonical: String?)] = [
            ("010.020.030.040", nil),
            ("010.1.1.1", nil),
            ("1.1.1.01", nil),
            ("00.1.1.1", nil),
            ("1.00.1.1", nil),
            ("001.2.3.4", nil),
            ("::ffff:010.1.1.1", nil),
            ("::ffff:1.2.3.04", nil),
            ("0.0.0.0", "0.0.0.0"),
            ("10.20.30.40", "10.20.30.40"),
            ("100.1.1.1", "100.1.1.1"),
            ("1.2.3.0", "1.2.3.0"),
            ("::ffff:10.1.1.1", "::ffff:10.1.1.1"),
            ("::ffff:0.1.1.1", "::ffff:0.1.1.1"),
        ]
        for (text, canonical) in table {
            XCTAssertEqual(IPAddress(text)?.description, canonical, text)
        }
    }

    /// The public face of the type: two spellings of one address are one value, whose
    /// `description` is the canonical text and whose `scope` is the API's.
    func testTwoSpellingsAreOneAddressWithOneTextAndScope() throws {
        let long = try XCTUnwrap(IPAddress("2001:DB8:0:0:0:0:0:1"))
        let short = try XCTUnwrap(IPAddress("2001:db8::1"))
        XCTAssertEqual(long, short)
        XCTAssertEqual(Set([long, short]).count, 1)
        XCTAssertEqual(long.description, "2001:db8::1")
        XCTAssertEqual(long.scope, .private, "documentation block")
        XCTAssertEqual(IPAddress("8.8.8.8")?.scope, .public)
        XCTAssertEqual(IPAddress("224.0.0.1")?.scope, .reserved)
        XCTAssertNil(IPAddress("8.8.8.8 "))
    }

    func testIPv4() {
        let table: [(text: String, canonical: String?)] = [
            ("8.8.8.8", "8.8.8.8"),
            ("255.255.255.255", "255.255.255.255"),
            ("256.1.1.1", nil),
            ("1.1.1.1000", nil),
            ("8.8.8", nil),
            ("8.8.8.8.", nil),
            (".8.8.8.8", nil),
            ("8..8.8", nil),
            ("8.8.8.8.8", nil),
            (" 8.8.8.8", nil),
            ("8.8.8.8 ", nil),
            ("0x8.8.8.8", nil),
            ("8.8.8.8/32", nil),
            ("8.8.8.8:443", nil),
            ("1.2.3.4\u{0}", nil),
            ("١.٢.٣.٤", nil),  // Arabic-Indic digits are digits to Character, not to the rule
            ("", nil),
        ]
        for (text, canonical) in table {
            XCTAssertEqual(IPAddress(text)?.description, canonical, text)
        }
    }

    func testIPv6IsCanonicalisedAsInetNtopWritesIt() {
        let table: [(text: String, canonical: String?)] = [
            ("2001:DB8::1", "2001:db8::1"),
            ("2001:db8:0:0:0:0:0:1", "2001:db8::1"),
            ("2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"),
            ("::", "::"),
            ("::1", "::1"),
            ("1::", "1::"),
            ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
            ("::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"),
            ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
            ("1:0:0:2:0:0:3:4", "1::2:0:0:3:4"),
            ("1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7"),
            ("::ffff:1.2.3.4", "::ffff:1.2.3.4"),
            ("::FFFF:102:304", "::ffff:1.2.3.4"),
            ("::1.2.3.4", "::1.2.3.4"),
            ("64:ff9b::1.2.3.4", "64:ff9b::102:304"),
            ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
            ("::1::", nil),
            (":1::", nil),
            ("1::2:", nil),
            ("1:2:3:4:5:6:7:8:9", nil),
            ("1::2:3:4:5:6:7:8", nil),
            ("1:2:3:4:5:6:7:8::", nil),
            ("12345::", nil),
            ("fe80::1%eth0", nil),
            ("[::1]", nil),
            ("::1/128", nil),
            ("1:2:3:4:5:6:7:1.2.3.4", nil),
            ("::1.2.3", nil),
            ("::1.2.3.4:5", nil),
            ("::a.2.3.4", nil),
            ("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
        ]
        for (text, canonical) in table {
            XCTAssertEqual(IPAddress(text)?.description, canonical, text)
        }
    }

    func testTheScopeTheAPIGivesAnAddress() {
        let table: [(String, IPAddress.Scope)] = [
            ("8.8.8.8", .public), ("1.1.1.1", .public), ("100.63.255.255", .public), ("100.128.0.0", .public),
            ("192.0.3.1", .public), ("198.51.101.1", .public), ("203.0.114.1", .public), ("2001:db9::1", .public),
            ("2606:4700::1111", .public),
            ("10.0.0.1", .private), ("172.16.0.1", .private), ("192.168.1.1", .private), ("127.0.0.1", .private),
            ("169.254.1.1", .private), ("0.1.2.3", .private), ("::1", .private), ("fd00::1", .private),
            ("fe80::1", .private),
            // The documentation ranges: RFC 5737 and RFC 3849.
            ("192.0.2.1", .private), ("198.51.100.23", .private), ("203.0.113.255", .private),
            ("2001:db8::1", .private), ("2001:db8:ffff::1", .private),
            // Carrier-grade NAT's shared address space (RFC 6598), multicast and above.
            ("100.64.0.0", .reserved), ("100.127.255.255", .reserved), ("224.0.0.1", .reserved),
            ("255.255.255.255", .reserved), ("ff02::1", .reserved),
        ]
        for (text, scope) in table { XCTAssertEqual(IPAddress(text)?.scope, scope, text) }
    }

    func testTheSameAddressWrittenTwoWaysIsOneAddress() {
        XCTAssertEqual(IPAddress("2001:DB8::1"), IPAddress("2001:db8:0:0:0:0:0:1"))
        XCTAssertNotEqual(IPAddress("::ffff:1.2.3.4"), IPAddress("1.2.3.4"))
    }

    #if canImport(Glibc)
    /// The rule was written to be glibc's: the same verdict and the same text for a table of
    /// shapes and for 100,000 strings made by a seeded generator, so a difference is reproducible.
    func testTheRuleAgreesWithGlibc() {
        var generator = SeededGenerator(seed: 0x1DA7A_0ADD)
        var compared = 0
        var valid = 0
        for text in Self.shapes + (0..<100_000).map({ _ in Self.candidate(&generator) }) {
            let expected = Self.glibcCanonical(text)
            XCTAssertEqual(IPAddress(text)?.description, expected, "\(text.debugDescription)")
            compared += 1
            if expected != nil { valid += 1 }
        }
        // The generator must reach both sides of the rule, or the comparison proves little.
        XCTAssertGreaterThan(valid, 20_000)
        XCTAssertGreaterThan(compared - valid, 20_000)
    }

    private static let shapes = [
        "::", ":::", "::0", "0::", "0:0:0:0:0:0:0:0", "::0.0.0.0", "::0.0.0.1", "::0.0.1.0", "::ffff:0.0.0.0",
        "::ffff:0:0", "::1:0:0:0", "0:0:0:0:0:1:0:0", "1:0:0:0:0:0:0:0", "0:0:1::", "::ffff:ffff:1.2.3.4",
        "0:0:0:0:0:ffff:1.2.3.4", "::fffe:1.2.3.4", "1::1.2.3.4", "::0:1.2.3.4", "1:2:3:4:5::1.2.3.4",
        "1:2:3:4:5:6::1.2.3.4", "::1:2:3:4:5:1.2.3.4", "0000:0000::", "00000::", "::00000",
    ]

    private static func candidate(_ generator: inout SeededGenerator) -> String {
        func pick(_ choices: [String]) -> String { choices[Int(generator.next() % UInt64(choices.count))] }
        switch generator.next() % 4 {
        case 0:
            // Dotted quads near the edges of the rule.
            let parts = ["0", "1", "9", "10", "99", "100", "255", "256", "00", "01", "010", "1000", "", "a"]
            let count = [3, 4, 4, 4, 4, 5][Int(generator.next() % 6)]
            return (0..<count).map { _ in pick(parts) }.joined(separator: ".")
        case 1:
            // Mostly well-formed IPv6: up to eight groups, perhaps one `::`, perhaps an IPv4 tail.
            let tail = generator.next() % 3 == 0 ? [pick(["1.2.3.4", "0.0.0.0", "255.1.0.9", "01.2.3.4"])] : []
            let count = Int(generator.next() % 9) - tail.count * 2
            var groups = (0..<max(0, count)).map { _ in pick(["0", "1", "ffff", "FFFF", "0000", "abc", "12", "0"]) }
            groups += tail
            if generator.next() % 2 == 0 || groups.count < 8 {
                let at = Int(generator.next() % UInt64(groups.count + 1))
                let before = groups[..<at].joined(separator: ":")
                let after = groups[at...].joined(separator: ":")
                return before + "::" + after
            }
            return groups.joined(separator: ":")
        case 2:
            // Groups, gaps and tails near the edges of IPv6.
            let groups = ["0", "1", "ffff", "FFFF", "0000", "12345", "abc", "g", "", "1.2.3.4", "01.2.3.4"]
            let count = Int(generator.next() % 10) + 1
            var text = (0..<count).map { _ in pick(groups) }.joined(separator: ":")
            if generator.next() % 2 == 0 {
                let at = text.index(text.startIndex, offsetBy: Int(generator.next() % UInt64(text.count + 1)))
                text.insert(":", at: at)
            }
            return text
        default:
            // Any short string over the characters that matter.
            let alphabet = Array("0123456789abcdefABCDEF:.:.x% ")
            return String((0..<Int(generator.next() % 20)).map { _ in alphabet[Int(generator.next() % 29)] })
        }
    }

    private static func glibcCanonical(_ text: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            _ = inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count))
            return string(from: buffer)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count))
        return string(from: buffer)
    }

    private static func string(from buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #endif

    /// The public view of an address's bits reads back what made it, in both families.
    func testAnAddressMadeOfBitsReadsBackItsBitsAndItsText() {
        let v4 = IPAddress(ipv4: 0x0808_0808)
        XCTAssertEqual(v4, IPAddress("8.8.8.8"))
        XCTAssertEqual(v4.ipv4Bits, 0x0808_0808)
        XCTAssertNil(v4.ipv6Bits)

        let v6 = IPAddress(ipv6High: 0x2001_0db8_0000_0000, low: 1)
        XCTAssertEqual(v6.description, "2001:db8::1")
        XCTAssertNil(v6.ipv4Bits)
        XCTAssertEqual(v6.ipv6Bits?.high, 0x2001_0db8_0000_0000)
        XCTAssertEqual(v6.ipv6Bits?.low, 1)

        let mapped = IPAddress(ipv6High: 0, low: 0xFFFF_0102_0304)
        XCTAssertEqual(mapped, IPAddress("::ffff:1.2.3.4"), "an IPv4-mapped address stays IPv6")
        XCTAssertNil(mapped.ipv4Bits)
        for text in ["0.0.0.0", "255.255.255.255", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::1"] {
            let address = IPAddress(text)!
            let rebuilt =
                address.ipv4Bits.map(IPAddress.init(ipv4:))
                ?? address.ipv6Bits.map { IPAddress(ipv6High: $0.high, low: $0.low) }
            XCTAssertEqual(rebuilt, address, text)
        }
    }
}
