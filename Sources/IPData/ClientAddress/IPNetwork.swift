/// A block of IPv4 or IPv6 addresses in CIDR notation: `10.0.0.0/8`, `2001:db8::/32`, or one
/// address (`192.0.2.7`, a `/32`; `::1`, a `/128`).
///
/// ```swift
/// let network = IPNetwork("10.0.0.0/8")!
/// network.contains("10.1.2.3")  // true
/// ```
///
/// Addresses are read by the same rule as everywhere in this package (no leading zeros in IPv4,
/// no zone in IPv6). An IPv4-mapped IPv6 address (`::ffff:10.1.2.3`) is the IPv4 address it
/// maps, so a dual-stack socket's peer matches an IPv4 block.
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    let address: IPAddress
    /// How many leading bits of `address` the block fixes: 0 to 32 for IPv4, 0 to 128 for IPv6.
    public let prefixLength: Int

    /// The block written in `text`, or nil when `text` is not one: an address, or an address, `/`
    /// and a prefix length within the address's bits. An address with bits set past the prefix
    /// (`10.1.2.3/8`) is refused rather than guessed at: write the block's first address.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let bits = address.bitWidth
        var prefixLength = bits
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCIIDigit),
                digits == "0" || digits.first != "0", let length = Int(digits), length <= bits
            else { return nil }
            prefixLength = length
        }
        guard address.masked(to: prefixLength) == address else { return nil }
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Whether `address` (an IPv4 or IPv6 address's text) is in the block; false for text that
    /// is not an address.
    public func contains(_ address: String) -> Bool {
        IPAddress(address).map(contains) ?? false
    }

    func contains(_ candidate: IPAddress) -> Bool {
        let candidate = candidate.unmappingIPv4
        return candidate.bitWidth == address.bitWidth && candidate.masked(to: prefixLength) == address
    }

    /// The block in CIDR notation, its address in canonical form: `10.0.0.0/8`, `2001:db8::/32`.
    public var description: String { "\(address)/\(prefixLength)" }

    /// This machine: `127.0.0.0/8` and `::1`.
    public static let loopback: [IPNetwork] = ["127.0.0.0/8", "::1/128"].map { IPNetwork($0)! }

    /// The networks a data centre's own proxies and load balancers usually sit in: loopback, the
    /// RFC 1918 blocks (`10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`) and IPv6 unique local
    /// addresses (`fc00::/7`).
    public static let privateNetworks: [IPNetwork] =
        loopback + ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"].map { IPNetwork($0)! }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension IPAddress {
    /// 32 or 128.
    var bitWidth: Int {
        switch bits {
        case .v4: return 32
        case .v6: return 128
        }
    }

    /// The address with every bit after the first `prefixLength` cleared.
    func masked(to prefixLength: Int) -> IPAddress {
        switch bits {
        case .v4(let bits):
            return .v4(prefixLength == 0 ? 0 : bits & ~UInt32(0) << UInt32(32 - prefixLength))
        case .v6(let groups):
            func mask(_ word: UInt64, keeping count: Int) -> UInt64 {
                count <= 0 ? 0 : count >= 64 ? word : word & ~UInt64(0) << UInt64(64 - count)
            }
            return .v6(
                Groups(
                    high: mask(groups.high, keeping: prefixLength),
                    low: mask(groups.low, keeping: prefixLength - 64)))
        }
    }

    /// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for; otherwise itself.
    var unmappingIPv4: IPAddress {
        guard case .v6(let groups) = bits, groups.high == 0, groups.low >> 32 == 0xFFFF else { return self }
        return .v4(UInt32(truncatingIfNeeded: groups.low))
    }
}
