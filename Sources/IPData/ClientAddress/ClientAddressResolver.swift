/// Finds the address of the client behind your reverse proxies and load balancers: the address to
/// look up for a request, which a server framework's own `X-Forwarded-For` handling often gets
/// wrong.
///
/// Any client can send `X-Forwarded-For: 1.2.3.4`: the header is only as true as the machine that
/// wrote it. Each proxy appends the address it received the request from, so the header's
/// rightmost entries come from your proxies and its leftmost ones from whoever sent the request.
/// The resolver therefore starts from the connection's peer and walks the chain from the right,
/// past every address in `trustedProxies`, and returns the first address that is not one of
/// them: the machine your first proxy saw. What a client wrote further left is never read.
///
/// ```swift
/// let resolver = try ClientAddressResolver(trustedProxies: ["10.0.0.0/8"])
/// // Peer 10.0.0.5 (your load balancer), X-Forwarded-For: 6.6.6.6, 203.0.113.9, 10.0.0.7
/// resolver.clientAddress(peer: "10.0.0.5", headers: [("X-Forwarded-For", "6.6.6.6, 203.0.113.9, 10.0.0.7")])
/// // "203.0.113.9": 6.6.6.6 was written by the client and is ignored.
/// ```
///
/// - A peer that is not a trusted proxy is the client, whatever the headers say.
/// - Only the header your proxies set is read (`header`): a client's own `Forwarded` header,
///   passed on untouched by a proxy that sets `X-Forwarded-For`, is never believed.
/// - An entry that is not an address (`unknown`, an obfuscated `Forwarded` identifier such as
///   `_hidden`, or garbage) ends the walk with nil: the client is not known, and the proxy's own
///   address is not the client's.
/// - If every address in the chain is a trusted proxy, the leftmost is the client (a machine in
///   your own network).
/// - Ports (`1.2.3.4:5678`, `[2001:db8::1]:443`) and brackets are removed; an IPv4-mapped IPv6
///   address (`::ffff:1.2.3.4`) is its IPv4 address. The result is the address's canonical text.
public struct ClientAddressResolver: Sendable {
    /// The header your trusted proxies write the chain of addresses into.
    public enum ForwardingHeader: Sendable, Hashable {
        /// `X-Forwarded-For: client, proxy1, proxy2` (nginx, HAProxy, AWS and most load balancers).
        case xForwardedFor
        /// `Forwarded: for=client, for=proxy1` (RFC 7239).
        case forwarded
        /// `X-Real-IP: client`: one address, set by the one proxy in front of you (nginx's
        /// `proxy_set_header X-Real-IP $remote_addr`).
        case xRealIP
    }

    /// A trusted proxy that is not a network in CIDR notation.
    public struct InvalidNetwork: Error, CustomStringConvertible, Sendable {
        /// The text that is not one.
        public let text: String

        /// What is wrong with `text`, in one line.
        public var description: String {
            "'\(text)' is not a network: write an address (10.0.0.7) or an address and a prefix length "
                + "(10.0.0.0/8, 2001:db8::/32), with no bits set past the prefix."
        }
    }

    /// The networks of your own reverse proxies and load balancers.
    public let trustedProxies: [IPNetwork]
    /// The header they write the chain into.
    public let header: ForwardingHeader

    /// A resolver that believes what the proxies in `trustedProxies` write into `header`.
    public init(trustedProxies: [IPNetwork], header: ForwardingHeader = .xForwardedFor) {
        self.trustedProxies = trustedProxies
        self.header = header
    }

    /// A resolver whose trusted proxies are written in CIDR notation (`"10.0.0.0/8"`, `"::1"`).
    ///
    /// Throws `InvalidNetwork` for the first text that is not a network.
    public init(trustedProxies: [String], header: ForwardingHeader = .xForwardedFor) throws {
        let networks = try trustedProxies.map { text in
            guard let network = IPNetwork(text) else { throw InvalidNetwork(text: text) }
            return network
        }
        self.init(trustedProxies: networks, header: header)
    }

    /// The client's address for a request from `peer` (the connection's remote address; nil when
    /// it has none, such as a Unix socket) with `headers` (names in any case, in the order they
    /// came); nil when it cannot be known.
    public func clientAddress(peer: String?, headers: [(name: String, value: String)]) -> String? {
        clientAddress(peer: peer) { name in
            headers.filter { $0.name.lowercased() == name }.map(\.value)
        }
    }

    /// The client's address for a request from `peer`, reading headers through `values`, which
    /// returns every value of the header named by its argument (lower case), in order. Fits any
    /// framework: `{ request.headers[$0] }`.
    public func clientAddress(peer: String?, values: (_ lowercasedName: String) -> [String]) -> String? {
        guard let peer = peer.flatMap(Self.address(inEntry:)) else { return nil }
        guard isTrusted(peer) else { return peer.description }
        let chain: [Hop]
        switch header {
        case .xForwardedFor:
            chain = Self.listEntries(values("x-forwarded-for")).map(Hop.init(entry:))
        case .forwarded:
            chain = ForwardedHeader.forHops(values("forwarded"))
        case .xRealIP:
            let value = values("x-real-ip").map { Substring($0).trimmingSpaces }.last { !$0.isEmpty }
            chain = value.map { [Hop(entry: $0)] } ?? []
        }
        guard !chain.isEmpty else { return peer.description }
        for hop in chain.reversed() {
            guard case .address(let address) = hop else { return nil }
            if !isTrusted(address) { return address.description }
        }
        if case .address(let leftmost) = chain[0] { return leftmost.description }
        return nil
    }

    /// One entry of a chain: an address, or something that is not one.
    enum Hop: Equatable {
        case address(IPAddress)
        case unknown

        init(entry: Substring) {
            self = ClientAddressResolver.address(inEntry: entry).map(Hop.address) ?? .unknown
        }
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The comma-separated entries of every line of a list header, in order, trimmed; empty ones
    /// (`a, , b`), which a header list allows, are left out.
    static func listEntries(_ lines: [String]) -> [Substring] {
        lines.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// The address of one chain entry: `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]` or
    /// `[2001:db8::1]:443`; an IPv4-mapped IPv6 address as IPv4.
    static func address(inEntry entry: some StringProtocol) -> IPAddress? {
        let entry = Substring(entry).trimmingSpaces
        var host = entry
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { return nil }
            host = entry[entry.index(after: entry.startIndex)..<close]
            let rest = entry[entry.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest.dropFirst()) && rest.first == ":" else { return nil }
        } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
            // One colon: IPv4 and a port. (IPv6 has at least two.)
            guard Self.isPort(entry[entry.index(after: colon)...]) else { return nil }
            host = entry[..<colon]
        }
        return IPAddress(host)?.unmappingIPv4
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber } && Int(text)! <= 65_535
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
