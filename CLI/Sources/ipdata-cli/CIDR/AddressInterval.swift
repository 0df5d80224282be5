import IPData

/// A run of consecutive addresses of one family, `first` to `last` (both included), as numbers:
/// the range arithmetic of `ipdata cidr`. Numbers have 128 bits, held as two `UInt64` halves;
/// an IPv4 address is its 32 bits in the low half.
struct AddressInterval: Equatable {
    /// An address's bits as one unsigned 128-bit number.
    struct Number: Comparable, Hashable {
        var high: UInt64
        var low: UInt64

        static func < (left: Number, right: Number) -> Bool {
            (left.high, left.low) < (right.high, right.low)
        }

        /// The number after this one; nil after the last of 128 bits.
        var successor: Number? {
            if low != .max { return Number(high: high, low: low + 1) }
            return high == .max ? nil : Number(high: high + 1, low: 0)
        }

        /// `self - other`, for `other` at most `self`.
        func minus(_ other: Number) -> Number {
            Number(high: high &- other.high &- (low < other.low ? 1 : 0), low: low &- other.low)
        }

        /// The lowest `count` bits set, the others clear (`count` from 0 to 128).
        static func lowBits(_ count: Int) -> Number {
            // Shifts of 64 or more give 0 in Swift, so `1 << 64 &- 1` is every bit of a half.
            count <= 64
                ? Number(high: 0, low: (UInt64(1) << UInt64(count)) &- 1)
                : Number(high: (UInt64(1) << UInt64(count - 64)) &- 1, low: .max)
        }

        static func | (left: Number, right: Number) -> Number {
            Number(high: left.high | right.high, low: left.low | right.low)
        }

        static prefix func ~ (number: Number) -> Number {
            Number(high: ~number.high, low: ~number.low)
        }

        static func & (left: Number, right: Number) -> Number {
            Number(high: left.high & right.high, low: left.low & right.low)
        }

        /// 128 for zero.
        var trailingZeroBitCount: Int {
            low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount
        }

        /// 128 for zero.
        var leadingZeroBitCount: Int {
            high != 0 ? high.leadingZeroBitCount : 64 + low.leadingZeroBitCount
        }
    }

    /// IPv4 sorts before IPv6.
    enum Family: Int, Comparable {
        case v4, v6

        /// 32 or 128.
        var bitWidth: Int { self == .v4 ? 32 : 128 }

        static func < (left: Family, right: Family) -> Bool { left.rawValue < right.rawValue }
    }

    let family: Family
    let first: Number
    private(set) var last: Number

    /// The interval from `first` to `last`, which must be of `family` and in order.
    init(family: Family, first: Number, last: Number) {
        precondition(first <= last && last <= Number.lowBits(family.bitWidth), "an interval in order, in its family")
        self.family = family
        self.first = first
        self.last = last
    }

    /// The network of `prefixLength` bits that holds `address` (its bits after the prefix are
    /// ignored, as `10.0.0.1/8` stands for `10.0.0.0/8`).
    init(network address: IPAddress, prefixLength: Int) {
        let (family, number) = Self.number(of: address)
        let hostBits = Number.lowBits(family.bitWidth - prefixLength)
        self.init(family: family, first: number & ~hostBits, last: number | hostBits)
    }

    /// The family and number of `address`, whose family is its own (an IPv4-mapped IPv6 address
    /// is IPv6 here: callers unmap it first where they mean it as IPv4).
    static func number(of address: IPAddress) -> (Family, Number) {
        if let bits = address.ipv4Bits { return (.v4, Number(high: 0, low: UInt64(bits))) }
        let bits = address.ipv6Bits ?? (0, 0)
        return (.v6, Number(high: bits.high, low: bits.low))
    }

    /// The address of `number` in `family`.
    static func address(_ number: Number, _ family: Family) -> IPAddress {
        guard family == .v6 else { return IPAddress(ipv4: UInt32(truncatingIfNeeded: number.low)) }
        return IPAddress(ipv6High: number.high, low: number.low)
    }

    /// The fewest networks that cover exactly this interval, in order, as first address and
    /// prefix length: the largest aligned block that starts at each step's first address.
    var networks: [(address: IPAddress, prefixLength: Int)] {
        var networks: [(address: IPAddress, prefixLength: Int)] = []
        var start = first
        while true {
            // The block's size is 2^bits: no more than what is left, nor than `start`'s alignment.
            let left = last.minus(start)
            let fits = left.successor.map { 127 - $0.leadingZeroBitCount } ?? 128
            let bits = min(fits, start.trailingZeroBitCount, family.bitWidth)
            networks.append((Self.address(start, family), family.bitWidth - bits))
            let end = start | Number.lowBits(bits)
            guard end < last, let next = end.successor else { return networks }
            start = next
        }
    }

    /// `first-last`, each address in canonical form.
    var rangeText: String {
        "\(Self.address(first, family))-\(Self.address(last, family))"
    }

    /// The fewest intervals that cover exactly the union of `intervals`: IPv4 first, then IPv6,
    /// each family in order; overlapping and adjacent intervals joined. Sorts, then merges in
    /// one pass.
    static func merged(_ intervals: [AddressInterval]) -> [AddressInterval] {
        let sorted = intervals.sorted { ($0.family, $0.first) < ($1.family, $1.first) }
        var merged: [AddressInterval] = []
        merged.reserveCapacity(sorted.count)
        for interval in sorted {
            if let previous = merged.last, previous.family == interval.family,
                previous.last.successor.map({ interval.first <= $0 }) ?? true
            {
                if interval.last > previous.last { merged[merged.count - 1].last = interval.last }
            } else {
                merged.append(interval)
            }
        }
        return merged
    }
}
