extension IPAddress {
    /// What the API does with an address: looks it up, or refuses it with a 400 as private or
    /// as reserved (see `APIMessage.privateAddress(_:)` and `reservedAddress(_:)`).
    ///
    /// The rule is the IANA IPv4 and IPv6 Special-Purpose Address Registries: an address in a
    /// block that is not globally reachable is not public. Such a block is private when it is
    /// used inside one network or host, as RFC 1918 is (the API's examples: private networks,
    /// loopback, link-local); it is reserved when it is no one network's own (the API's examples:
    /// multicast, `240.0.0.0/4`, carrier-grade NAT). IPv6 outside `2000::/3`, the global unicast
    /// space, is reserved, but for `64:ff9b::/96` (NAT64, globally reachable). An IPv4-mapped
    /// address (`::ffff:1.2.3.4`) has the scope of its IPv4 address.
    public enum Scope: Sendable, Hashable {
        /// Any other address: the API looks it up.
        case `public`
        /// IPv4: "this network" (`0.0.0.0/8`), RFC 1918 (`10.0.0.0/8`, `172.16.0.0/12`,
        /// `192.168.0.0/16`), loopback (`127.0.0.0/8`), link-local (`169.254.0.0/16`), IETF
        /// protocol assignments (`192.0.0.0/24`, but for the anycast `192.0.0.9` and `192.0.0.10`),
        /// documentation (`192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`) and benchmarking
        /// (`198.18.0.0/15`). IPv6: unspecified (`::`), loopback (`::1`), local-use NAT64
        /// (`64:ff9b:1::/48`), discard-only (`100::/64`), IETF protocol assignments (`2001::/23`:
        /// Teredo `2001::/32`, benchmarking `2001:2::/48`, ORCHID `2001:10::/28`; but for the
        /// globally reachable `2001:1::1` to `2001:1::3`, `2001:3::/32`, `2001:4:112::/48`,
        /// `2001:20::/28` and `2001:30::/28`), documentation (`2001:db8::/32`, `3fff::/20`), unique
        /// local (`fc00::/7`), link-local (`fe80::/10`) and the old site-local (`fec0::/10`).
        case `private`
        /// IPv4: carrier-grade NAT's shared address space (`100.64.0.0/10`, RFC 6598), multicast
        /// (`224.0.0.0/4`), and `240.0.0.0/4` with the limited broadcast `255.255.255.255`. IPv6:
        /// multicast (`ff00::/8`) and the rest outside `2000::/3`, such as the IPv4-compatible
        /// `::1.2.3.4` and segment routing's `5f00::/16`.
        case reserved
    }

    /// The scope the API gives this address (see `Scope` for the table).
    public var scope: Scope {
        switch bits {
        case .v4(let bits): return Self.scope(ofIPv4: bits)
        case .v6(let groups): return Self.scope(ofIPv6: groups)
        }
    }

    /// IPv4 blocks as (network, prefix length).
    private static let privateIPv4: [(UInt32, UInt32)] = [
        (0x0000_0000, 8), (0x0A00_0000, 8), (0x7F00_0000, 8), (0xA9FE_0000, 16), (0xAC10_0000, 12),
        (0xC000_0000, 24), (0xC000_0200, 24), (0xC0A8_0000, 16), (0xC612_0000, 15), (0xC633_6400, 24),
        (0xCB00_7100, 24),
    ]
    /// 100.64.0.0/10, and 224.0.0.0/3: multicast, 240.0.0.0/4 and the limited broadcast.
    private static let reservedIPv4: [(UInt32, UInt32)] = [(0x6440_0000, 10), (0xE000_0000, 3)]

    private static func scope(ofIPv4 bits: UInt32) -> Scope {
        func within(_ block: (network: UInt32, length: UInt32)) -> Bool {
            bits >> (32 - block.length) == block.network >> (32 - block.length)
        }
        // 192.0.0.9 (PCP anycast) and 192.0.0.10 (TURN anycast) are globally reachable.
        if bits == 0xC000_0009 || bits == 0xC000_000A { return .public }
        if privateIPv4.contains(where: within) { return .private }
        if reservedIPv4.contains(where: within) { return .reserved }
        return .public
    }

    /// IPv6 blocks as (the high and low 64 bits of the network, prefix length).
    private static let globallyReachableIPv6: [(UInt64, UInt64, Int)] = [
        (0x0064_FF9B_0000_0000, 0, 96), (0x2001_0001_0000_0000, 1, 128), (0x2001_0001_0000_0000, 2, 128),
        (0x2001_0001_0000_0000, 3, 128), (0x2001_0003_0000_0000, 0, 32), (0x2001_0004_0112_0000, 0, 48),
        (0x2001_0020_0000_0000, 0, 28), (0x2001_0030_0000_0000, 0, 28),
    ]
    private static let privateIPv6: [(UInt64, UInt64, Int)] = [
        (0x0064_FF9B_0001_0000, 0, 48), (0x0100_0000_0000_0000, 0, 64), (0x2001_0000_0000_0000, 0, 23),
        (0x2001_0DB8_0000_0000, 0, 32), (0x3FFF_0000_0000_0000, 0, 20), (0xFC00_0000_0000_0000, 0, 7),
        (0xFE80_0000_0000_0000, 0, 10), (0xFEC0_0000_0000_0000, 0, 10),
    ]

    private static func scope(ofIPv6 groups: Groups) -> Scope {
        func within(_ block: (high: UInt64, low: UInt64, length: Int)) -> Bool {
            if block.length <= 64 { return groups.high >> (64 - block.length) == block.high >> (64 - block.length) }
            let shift = 128 - block.length
            return groups.high == block.high && groups.low >> shift == block.low >> shift
        }
        // ::ffff:0:0/96: an IPv4 address written as IPv6.
        if groups.high == 0, groups.low >> 32 == 0xFFFF { return scope(ofIPv4: UInt32(truncatingIfNeeded: groups.low)) }
        if groups.high == 0, groups.low <= 1 { return .private }  // :: and ::1
        if globallyReachableIPv6.contains(where: within) { return .public }
        if privateIPv6.contains(where: within) { return .private }
        return groups.high >> 61 == 1 ? .public : .reserved  // 2000::/3
    }

    /// Whether the address is this machine: `127.0.0.0/8` or `::1`.
    var isLoopback: Bool {
        switch bits {
        case .v4(let bits): return bits >> 24 == 127
        case .v6(let groups): return groups.high == 0 && groups.low == 1
        }
    }
}
