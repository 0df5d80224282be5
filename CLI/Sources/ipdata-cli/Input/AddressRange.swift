import Foundation
import IPData

/// A block of addresses written on one line of `ipdata bulk`'s input: a network in CIDR notation
/// (`8.8.8.0/29`) or a dash range (`8.8.8.1-8.8.8.6`, `2001:db8::1 - 2001:db8::ff`), looked up as
/// each of its addresses in order. `--max-addresses` caps how many one range may hold, so that a
/// typo (`/8` for `/28`) spends no quota. A network written with host bits set (`10.0.0.1/8`) is
/// read, but nothing of it is looked up: its problem names the network it stands for.
struct AddressRange: Sequence {
    let first: IPAddress
    /// How many addresses: at least 1; at most 2^64 for IPv6 (more is reported as that).
    let count: UInt64
    /// The text as written, for messages.
    let text: String
    /// For a network written with bits set after its prefix, what is wrong, naming the network.
    private var hostBitsProblem: String?

    /// The range written in `text`, or nil when it is not one (a plain address is not).
    init?(_ text: String) {
        self.text = text
        // Most fields are a plain address: a byte's look rules a range out before Foundation's.
        let utf8 = text.utf8
        let hasSlash = utf8.contains(UInt8(ascii: "/"))
        guard hasSlash || utf8.contains(UInt8(ascii: "-")) else { return nil }
        if hasSlash, text.contains("/") {
            guard let (address, prefixLength) = Self.addressAndPrefix(text) else { return nil }
            first = address.network(prefixLength: prefixLength)
            if first != address {
                hostBitsProblem = "\(text) has host bits set: the network is \(first)/\(prefixLength)"
            }
            let hostBits = address.bitWidth - prefixLength
            count = hostBits >= 64 ? UInt64.max : UInt64(1) << UInt64(hostBits)
            return
        }
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let low = IPAddress(ends[0].trimmingCharacters(in: .whitespaces)),
            let high = IPAddress(ends[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        switch (low.bits, high.bits) {
        case (.v4(let a), .v4(let b)) where a <= b:
            count = UInt64(b - a) + 1
        case (.v6(let a), .v6(let b)) where (a.high, a.low) <= (b.high, b.low):
            // b - a in 128 bits; from 2^64 addresses on, the count is reported as UInt64.max.
            let lowDifference = b.low &- a.low
            let highDifference = b.high - a.high - (b.low < a.low ? 1 : 0)
            count = highDifference > 0 || lowDifference == .max ? .max : lowDifference + 1
        default:
            return nil
        }
        first = low
    }

    /// An address, `/` and a prefix length within its bits, written as `IPNetwork` reads them,
    /// host bits or not: nil for anything else.
    private static func addressAndPrefix(_ text: String) -> (IPAddress, Int)? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let address = IPAddress(parts[0]) else { return nil }
        // `IPNetwork` holds the rule for the prefix length; it is read on the block's first address.
        guard let network = IPNetwork("\(address.network(prefixLength: 0))/\(parts[1])") else { return nil }
        return (address, network.prefixLength)
    }

    /// The problem of a range that is not looked up: a network with host bits set, or a range
    /// over `maximum` addresses; for the record of its line.
    func problem(maximum: Int) -> String? {
        if let hostBitsProblem { return hostBitsProblem }
        guard count > UInt64(maximum) else { return nil }
        let size = count == UInt64.max ? "more than 18 quintillion" : count.formatted
        return "\(text) holds \(size) addresses, more than --max-addresses \(maximum.formatted): nothing was looked up"
    }

    func makeIterator() -> AnyIterator<String> {
        var next: IPAddress? = first
        var left = count
        return AnyIterator {
            guard left > 0, let address = next else { return nil }
            left -= 1
            next = address.successor
            return address.description
        }
    }
}

extension IPAddress {
    /// The first address of the network of `prefixLength` bits that holds this one: its bits
    /// after the prefix cleared (`10.0.0.1`, 8: `10.0.0.0`).
    func network(prefixLength: Int) -> IPAddress {
        func kept(_ word: UInt64, _ count: Int) -> UInt64 {
            count <= 0 ? 0 : count >= 64 ? word : word & ~(UInt64.max >> UInt64(count))
        }
        switch bits {
        case .v4(let bits):
            return IPAddress(ipv4: UInt32(truncatingIfNeeded: kept(UInt64(bits) << 32, prefixLength) >> 32))
        case .v6(let groups):
            return IPAddress(ipv6High: kept(groups.high, prefixLength), low: kept(groups.low, prefixLength - 64))
        }
    }

    /// The next address, or nil after the last of its family.
    fileprivate var successor: IPAddress? {
        switch bits {
        case .v4(let bits):
            return bits == .max ? nil : IPAddress(ipv4: bits + 1)
        case .v6(let groups):
            if groups.low != .max { return IPAddress(ipv6High: groups.high, low: groups.low + 1) }
            return groups.high == .max ? nil : IPAddress(ipv6High: groups.high + 1, low: 0)
        }
    }
}

extension BinaryInteger {
    /// With thousands separated: 65,536.
    fileprivate var formatted: String {
        let digits = Array(String(self))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
