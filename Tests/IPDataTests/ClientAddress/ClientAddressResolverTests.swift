import XCTest

@testable import IPData

/// The client's address behind proxies: spoofing attempts, multi-hop chains, IPv6 with ports and
/// brackets, obfuscated `Forwarded` identifiers and garbage.
final class ClientAddressResolverTests: XCTestCase {
    private struct Case {
        let peer: String?
        let headers: [(name: String, value: String)]
        let expected: String?
        let why: String
        let line: UInt

        init(
            _ peer: String?, _ headers: [(name: String, value: String)], _ expected: String?, _ why: String,
            line: UInt = #line
        ) {
            self.peer = peer
            self.headers = headers
            self.expected = expected
            self.why = why
            self.line = line
        }
    }

    private func check(_ resolver: ClientAddressResolver, _ cases: [Case]) {
        for item in cases {
            XCTAssertEqual(
                resolver.clientAddress(peer: item.peer, headers: item.headers), item.expected, item.why,
                line: item.line)
        }
    }

    private let proxies = ["10.0.0.0/8", "2001:db8:ffff::/48", "127.0.0.1"]

    func testXForwardedFor() throws {
        let resolver = try ClientAddressResolver(trustedProxies: proxies)
        let xff = "X-Forwarded-For"
        check(
            resolver,
            [
                Case("203.0.113.9", [], "203.0.113.9", "no proxy, no header: the peer"),
                Case("203.0.113.9", [(xff, "1.2.3.4")], "203.0.113.9", "spoofed header from an untrusted peer"),
                Case("10.0.0.5", [(xff, "203.0.113.9")], "203.0.113.9", "one trusted proxy"),
                Case("10.0.0.5", [(xff, "6.6.6.6, 203.0.113.9")], "203.0.113.9", "the client's own entry is ignored"),
                Case("10.0.0.5", [(xff, "6.6.6.6, 203.0.113.9, 10.0.0.7")], "203.0.113.9", "two trusted hops"),
                Case("10.0.0.5", [(xff, "6.6.6.6"), (xff, "203.0.113.9, 10.0.0.7")], "203.0.113.9", "two lines"),
                Case("10.0.0.5", [("x-forwarded-for", "203.0.113.9")], "203.0.113.9", "any case of the name"),
                Case("10.0.0.5", [(xff, "10.0.0.9, 10.0.0.7")], "10.0.0.9", "all trusted: the leftmost"),
                Case("10.0.0.5", [], "10.0.0.5", "a trusted peer without a header"),
                Case("10.0.0.5", [(xff, "")], "10.0.0.5", "an empty header"),
                Case("10.0.0.5", [(xff, "203.0.113.9, , 10.0.0.7")], "203.0.113.9", "an empty entry"),
                Case("10.0.0.5", [(xff, "203.0.113.9:54321")], "203.0.113.9", "IPv4 with a port"),
                Case("10.0.0.5", [(xff, "[2001:db8::1]:8080")], "2001:db8::1", "IPv6 in brackets with a port"),
                Case("10.0.0.5", [(xff, "[2001:DB8:0::1]")], "2001:db8::1", "IPv6 in brackets, canonical"),
                Case("10.0.0.5", [(xff, "2001:db8::1")], "2001:db8::1", "bare IPv6"),
                Case("10.0.0.5", [(xff, "::ffff:203.0.113.9")], "203.0.113.9", "IPv4-mapped IPv6"),
                Case("::ffff:10.0.0.5", [(xff, "203.0.113.9")], "203.0.113.9", "a dual-stack peer, mapped"),
                Case("::ffff:203.0.113.9", [(xff, "1.2.3.4")], "203.0.113.9", "an untrusted mapped peer"),
                Case("2001:db8:ffff::3", [(xff, "198.51.100.4")], "198.51.100.4", "an IPv6 proxy"),
                Case("2001:db8:fffe::3", [(xff, "198.51.100.4")], "2001:db8:fffe::3", "outside the IPv6 block"),
                Case("[2001:db8:ffff::3]:443", [(xff, "198.51.100.4")], "198.51.100.4", "a peer with port"),
                Case("10.0.0.5", [(xff, "6.6.6.6, unknown")], nil, "unknown ends the walk"),
                Case("10.0.0.5", [(xff, "6.6.6.6, garbage, 10.0.0.7")], nil, "garbage ends the walk"),
                Case("10.0.0.5", [(xff, "garbage, 203.0.113.9")], "203.0.113.9", "garbage left of the client"),
                Case("10.0.0.5", [(xff, "203.0.113.9:99999")], nil, "a port out of range"),
                Case("10.0.0.5", [(xff, "[2001:db8::1")], nil, "an unclosed bracket"),
                Case("10.0.0.5", [(xff, "[2001:db8::1]x")], nil, "text after the bracket"),
                Case("10.0.0.5", [(xff, "fe80::1%eth0")], nil, "a zone"),
                Case("10.0.0.5", [(xff, "010.1.1.1")], nil, "a leading zero"),
                Case("10.0.0.5", [(xff, "1.2.3.4.5")], nil, "five parts"),
                Case("10.0.0.5", [(xff, "\"203.0.113.9\"")], nil, "quotes are not X-Forwarded-For's"),
                Case("10.0.0.5", [("Forwarded", "for=6.6.6.6")], "10.0.0.5", "another header is not read"),
                Case("10.0.0.5", [("X-Real-IP", "6.6.6.6")], "10.0.0.5", "X-Real-IP is not read"),
                Case(nil, [(xff, "203.0.113.9")], nil, "no peer (a Unix socket): unknown"),
                Case("not an address", [(xff, "203.0.113.9")], nil, "a peer that is not an address"),
                Case("127.0.0.1", [(xff, "203.0.113.9")], "203.0.113.9", "a single trusted host"),
                Case("127.0.0.2", [(xff, "203.0.113.9")], "127.0.0.2", "the next host is not trusted"),
            ])
    }

    func testForwarded() throws {
        let resolver = try ClientAddressResolver(trustedProxies: proxies, header: .forwarded)
        let fwd = "Forwarded"
        check(
            resolver,
            [
                Case("10.0.0.5", [(fwd, "for=203.0.113.9")], "203.0.113.9", "one hop"),
                Case("10.0.0.5", [(fwd, "For=203.0.113.9;proto=https;by=10.0.0.5")], "203.0.113.9", "more pairs"),
                Case("10.0.0.5", [(fwd, "for=6.6.6.6, for=203.0.113.9, for=10.0.0.7")], "203.0.113.9", "a chain"),
                Case("10.0.0.5", [(fwd, "for=6.6.6.6"), (fwd, "for=203.0.113.9")], "203.0.113.9", "two lines"),
                Case("10.0.0.5", [(fwd, #"for="[2001:db8:cafe::17]:4711""#)], "2001:db8:cafe::17", "RFC 7239 IPv6"),
                Case("10.0.0.5", [(fwd, #"for="203.0.113.9:4711""#)], "203.0.113.9", "quoted IPv4 with a port"),
                Case("10.0.0.5", [(fwd, #"for="20\3.0.113.9""#)], "203.0.113.9", "a quoted escape"),
                Case(
                    "10.0.0.5", [(fwd, #"for=6.6.6.6, for="a,b";by=x, for=203.0.113.9"#)], "203.0.113.9",
                    "a comma in quotes"),
                Case("10.0.0.5", [(fwd, "for=6.6.6.6, for=_hidden")], nil, "an obfuscated identifier"),
                Case("10.0.0.5", [(fwd, "for=6.6.6.6, for=unknown")], nil, "unknown"),
                Case("10.0.0.5", [(fwd, "for=6.6.6.6, proto=http")], nil, "an element without for"),
                Case(
                    "10.0.0.5", [(fwd, "for=_hidden, for=203.0.113.9")], "203.0.113.9",
                    "obfuscated left of the client"),
                Case("10.0.0.5", [(fwd, "for=1.1.1.1;for=203.0.113.9")], nil, "two for in one element"),
                Case("10.0.0.5", [(fwd, #"for="203.0.113.9"#)], nil, "an unclosed quote"),
                Case("10.0.0.5", [(fwd, "for")], nil, "a pair without ="),
                Case("10.0.0.5", [(fwd, "=203.0.113.9")], nil, "a pair without a name"),
                Case("10.0.0.5", [(fwd, #"for="203.0.113.9"x"#)], nil, "text after a quote"),
                Case("10.0.0.5", [(fwd, "for=6.6.6.6"), (fwd, "for=\"x")], nil, "a bad element where the client is"),
                // A client's bad elements, left of what the proxies appended, spoil nothing.
                Case(
                    "10.0.0.5", [(fwd, #"for="x";for=1.1.1.1, for=203.0.113.9"#)], "203.0.113.9",
                    "two for in the client's element"),
                Case(
                    "10.0.0.5", [(fwd, #"for="1.1.1.1, for=203.0.113.9"#)], "203.0.113.9",
                    "the client's unclosed quote"),
                Case(
                    "10.0.0.5", [(fwd, #"for="x";for=1.1.1.1"#), (fwd, "for=203.0.113.9")], "203.0.113.9",
                    "the client's bad line, the proxy's own"),
                Case(
                    "10.0.0.5", [(fwd, #"for=203.0.113.9, for="x, for=10.0.0.7"#)], nil,
                    "a bad element between the proxies ends the walk"),
                Case(
                    "10.0.0.5", [(fwd, #"for="a\",b", for=203.0.113.9"#)], "203.0.113.9",
                    "an escaped quote and a comma in quotes"),
                Case("10.0.0.5", [(fwd, "for=203.0.113.9,")], "203.0.113.9", "a trailing comma"),
                Case("10.0.0.5", [("X-Forwarded-For", "6.6.6.6")], "10.0.0.5", "X-Forwarded-For is not read"),
                Case("203.0.113.9", [(fwd, "for=6.6.6.6")], "203.0.113.9", "spoofed from an untrusted peer"),
            ])
    }

    func testXRealIP() throws {
        let resolver = try ClientAddressResolver(trustedProxies: proxies, header: .xRealIP)
        check(
            resolver,
            [
                Case("10.0.0.5", [("X-Real-IP", "203.0.113.9")], "203.0.113.9", "set by the proxy"),
                Case("10.0.0.5", [("X-Real-IP", "6.6.6.6"), ("X-Real-IP", "203.0.113.9")], "203.0.113.9", "the last"),
                Case("10.0.0.5", [("X-Real-IP", " ")], "10.0.0.5", "empty"),
                Case("10.0.0.5", [("X-Real-IP", "garbage")], nil, "garbage"),
                Case("203.0.113.9", [("X-Real-IP", "6.6.6.6")], "203.0.113.9", "spoofed from an untrusted peer"),
            ])
    }

    func testTheValuesClosureIsAskedForTheLowerCaseName() throws {
        let resolver = try ClientAddressResolver(trustedProxies: ["10.0.0.0/8"])
        var asked: [String] = []
        let address = resolver.clientAddress(peer: "10.0.0.5") { name in
            asked.append(name)
            return ["203.0.113.9"]
        }
        XCTAssertEqual(address, "203.0.113.9")
        XCTAssertEqual(asked, ["x-forwarded-for"])
    }

    func testNetworks() {
        let valid: [(String, String)] = [
            ("10.0.0.0/8", "10.0.0.0/8"), ("192.0.2.7", "192.0.2.7/32"), ("0.0.0.0/0", "0.0.0.0/0"),
            ("2001:DB8::/32", "2001:db8::/32"), ("::1", "::1/128"), ("::/0", "::/0"), ("fc00::/7", "fc00::/7"),
            ("10.1.2.3/32", "10.1.2.3/32"), ("2001:db8::8000:0/97", "2001:db8::8000:0/97"),
        ]
        for (text, description) in valid {
            XCTAssertEqual(IPNetwork(text)?.description, description, text)
        }
        let invalid = [
            "", "/8", "10.0.0.0/", "10.0.0.0/33", "10.0.0.0/08", "10.0.0.0/-1", "10.0.0.0/ 8", "10.1.2.3/8",
            "2001:db8::/129", "2001:db8::1/64", "10.0.0.0/8/8", "example.com/8", "010.0.0.0/8", "fe80::1%eth0/64",
        ]
        for text in invalid { XCTAssertNil(IPNetwork(text), text) }

        let network = IPNetwork("10.0.0.0/8")!
        XCTAssertTrue(network.contains("10.255.255.255"))
        XCTAssertTrue(network.contains("::ffff:10.1.2.3"), "IPv4-mapped")
        XCTAssertFalse(network.contains("11.0.0.0"))
        XCTAssertFalse(network.contains("::a00:1"), "IPv4-compatible IPv6 is IPv6")
        XCTAssertFalse(network.contains("garbage"))
        let v6 = IPNetwork("2001:db8::8000:0/97")!
        XCTAssertTrue(v6.contains("2001:db8::ffff:ffff"))
        XCTAssertFalse(v6.contains("2001:db8::7fff:ffff"))
        XCTAssertFalse(v6.contains("10.0.0.1"))
        XCTAssertTrue(IPNetwork("0.0.0.0/0")!.contains("255.255.255.255"))
        XCTAssertFalse(IPNetwork("0.0.0.0/0")!.contains("::1"))
        XCTAssertTrue(IPNetwork.privateNetworks.contains { $0.contains("172.31.0.1") })
        XCTAssertFalse(IPNetwork.privateNetworks.contains { $0.contains("172.32.0.1") })
    }

    func testAnInvalidTrustedProxyIsNamed() {
        XCTAssertThrowsError(try ClientAddressResolver(trustedProxies: ["10.0.0.0/8", "10.1.2.3/8"])) { error in
            XCTAssertEqual((error as? ClientAddressResolver.InvalidNetwork)?.text, "10.1.2.3/8")
            XCTAssertTrue("\(error)".contains("'10.1.2.3/8' is not a network"), "\(error)")
        }
    }
}
