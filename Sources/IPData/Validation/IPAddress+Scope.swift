extension IPAddress {
    /// What the API does with an address: looks it up, or refuses it with a 400 as private or
    /// as reserved (see `APIMessage.privateAddress(_:)` and `reservedAddress(_:)`).
    package enum Scope: Sendable, Equatable {
        case `public`
        /// RFC 1918, loopback, link-local, "this network" (`0.0.0.0/8`), the documentation
        /// ranges (RFC 5737: `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`; RFC 3849:
        /// `2001:db8::/32`), IPv6 loopback, unique local (`fc00::/7`) and link-local (`fe80::/10`).
        case `private`
        /// Multicast and the blocks above it (`224.0.0.0/3`), the shared address space of
        /// carrier-grade NAT (`100.64.0.0/10`, RFC 6598), IPv6 multicast (`ff00::/8`).
        case reserved
    }

    /// The scope the API gives this address.
    package var scope: Scope {
        switch self {
        case .v4(let bits):
            let (a, b) = (bits >> 24, bits >> 16 & 0xFF)
            switch (a, b) {
            case (10, _), (127, _), (0, _), (169, 254), (192, 168), (172, 16...31): return .private
            case (224...255, _), (100, 64...127): return .reserved
            default: break
            }
            switch bits >> 8 {
            case 0xC0_00_02, 0xC6_33_64, 0xCB_00_71: return .private  // 192.0.2, 198.51.100, 203.0.113
            default: return .public
            }
        case .v6(let groups):
            let first = groups[0]
            if groups.high == 0 && groups.low == 1 { return .private }  // ::1
            if first & 0xFE00 == 0xFC00 || first & 0xFFC0 == 0xFE80 { return .private }
            if first == 0x2001 && groups[1] == 0x0DB8 { return .private }  // 2001:db8::/32
            if first & 0xFF00 == 0xFF00 { return .reserved }
            return .public
        }
    }

    /// Whether the address is this machine: `127.0.0.0/8` or `::1`.
    package var isLoopback: Bool {
        switch self {
        case .v4(let bits): return bits >> 24 == 127
        case .v6(let groups): return groups.high == 0 && groups.low == 1
        }
    }
}
