import IPData

extension IPAddress {
    /// An address's bits by family, to switch over: IPv4's 32, or IPv6's 128 as two halves.
    enum Bits {
        case v4(UInt32)
        case v6((high: UInt64, low: UInt64))
    }

    /// The address's bits, from the library's `ipv4Bits` and `ipv6Bits`.
    var bits: Bits {
        if let ipv4 = ipv4Bits { return .v4(ipv4) }
        let ipv6 = ipv6Bits ?? (0, 0)
        return .v6(ipv6)
    }

    /// 32 or 128.
    var bitWidth: Int {
        ipv4Bits == nil ? 128 : 32
    }

    /// The IPv4 address that an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for; otherwise itself.
    var unmappingIPv4: IPAddress {
        guard let ipv6 = ipv6Bits, ipv6.high == 0, ipv6.low >> 32 == 0xFFFF else { return self }
        return IPAddress(ipv4: UInt32(truncatingIfNeeded: ipv6.low))
    }
}
