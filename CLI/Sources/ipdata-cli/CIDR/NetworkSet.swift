import IPData

/// A set of networks to test addresses against: merged into sorted intervals once, then each
/// address found by a binary search, so that an address costs a few comparisons however long
/// the list.
struct NetworkSet {
    private let ipv4: [AddressInterval]
    private let ipv6: [AddressInterval]

    init(_ networks: [AddressInterval]) {
        let merged = AddressInterval.merged(networks)
        ipv4 = merged.filter { $0.family == .v4 }
        ipv6 = merged.filter { $0.family == .v6 }
    }

    /// Whether `address` is in one of the networks; an IPv4-mapped IPv6 address is its IPv4 address.
    func contains(_ address: IPAddress) -> Bool {
        let (family, number) = AddressInterval.number(of: address.unmappingIPv4)
        let intervals = family == .v4 ? ipv4 : ipv6
        // The first interval that starts after `number`; the one before it is the only candidate.
        var low = 0
        var high = intervals.count
        while low < high {
            let middle = (low + high) / 2
            if intervals[middle].first <= number { low = middle + 1 } else { high = middle }
        }
        return low > 0 && number <= intervals[low - 1].last
    }
}
