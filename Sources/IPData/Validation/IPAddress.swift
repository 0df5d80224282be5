/// An IPv4 or IPv6 address, read from text by one rule on every platform: `IPAddress("8.8.8.8")`.
///
/// Its `description` is the address's one canonical text (dotted decimal, or lower-case compressed
/// IPv6), so `2001:DB8::1` and `2001:db8:0:0:0:0:0:1` are one address, and its `scope` says
/// whether the API looks it up (`.public`) or refuses it as private or reserved.
///
/// The C library's `inet_pton` is not one rule: glibc refuses an IPv4 part with a leading zero
/// (`010.1.1.1`) while Darwin's accepts it and reads it as decimal, so the same input would be
/// sent from an iPhone and refused on a Linux server. This parser is the rule instead. It
/// accepts exactly what glibc's `inet_pton` accepts, and renders what glibc's `inet_ntop` renders;
/// `IPAddressTests` compares the two on Linux.
///
/// - IPv4: four decimal parts of 0 to 255, separated by dots, without leading zeros (`8.8.8.8`;
///   not `8.8.8`, `08.8.8.8`, ` 8.8.8.8` nor `0x8.8.8.8`).
/// - IPv6: any RFC 4291 text form: up to four hex digits a group, one `::` at most, and an
///   IPv4 tail in the last 32 bits (`::ffff:1.2.3.4`, whose parts follow the IPv4 rule). No zone
///   (`%eth0`), no brackets, no prefix length.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The bits of an address.
    enum Bits: Hashable, Sendable {
        /// The 32 bits of an IPv4 address, first octet in the highest byte.
        case v4(UInt32)
        /// The eight 16-bit groups of an IPv6 address, in order.
        case v6(Groups)
    }

    /// The address's bits.
    let bits: Bits

    /// The address of `bits`.
    init(_ bits: Bits) {
        self.bits = bits
    }

    /// The IPv4 address of these 32 bits.
    static func v4(_ bits: UInt32) -> IPAddress {
        IPAddress(.v4(bits))
    }

    /// The IPv6 address of these groups.
    static func v6(_ groups: Groups) -> IPAddress {
        IPAddress(.v6(groups))
    }

    /// The IPv4 address of these 32 bits, the first octet in the highest byte:
    /// `IPAddress(ipv4: 0x0808_0808)` is `8.8.8.8`.
    public init(ipv4 bits: UInt32) {
        self.init(.v4(bits))
    }

    /// The IPv6 address of these 128 bits, as two halves, the first group in the highest bits of
    /// `high`: `IPAddress(ipv6High: 0x2001_0db8_0000_0000, low: 1)` is `2001:db8::1`.
    ///
    /// An IPv4-mapped address (`::ffff:a.b.c.d`) made so stays an IPv6 address, as one read from
    /// text does.
    public init(ipv6High high: UInt64, low: UInt64) {
        self.init(.v6(Groups(high: high, low: low)))
    }

    /// The 32 bits of an IPv4 address, the first octet in the highest byte; nil for IPv6.
    public var ipv4Bits: UInt32? {
        if case .v4(let bits) = bits { return bits }
        return nil
    }

    /// The 128 bits of an IPv6 address as two halves, the first group in the highest bits of
    /// `high`; nil for IPv4.
    public var ipv6Bits: (high: UInt64, low: UInt64)? {
        if case .v6(let groups) = bits { return (groups.high, groups.low) }
        return nil
    }

    /// The eight groups of an IPv6 address (a tuple of eight, hashable and without allocation).
    struct Groups: Hashable, Sendable {
        var high: UInt64
        var low: UInt64

        subscript(index: Int) -> UInt16 {
            let word = index < 4 ? high : low
            return UInt16(truncatingIfNeeded: word >> (UInt64(3 - index % 4) * 16))
        }

        mutating func set(_ index: Int, _ value: UInt16) {
            let shift = UInt64(3 - index % 4) * 16
            let mask = ~(UInt64(0xFFFF) << shift)
            if index < 4 {
                high = (high & mask) | (UInt64(value) << shift)
            } else {
                low = (low & mask) | (UInt64(value) << shift)
            }
        }
    }

    /// The address written in `text`, or nil when `text` is not exactly one address (see the
    /// type's description for the rule).
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        // The longest address text is 45 bytes (six full groups and a dotted IPv4 tail).
        guard !utf8.isEmpty, utf8.count <= 45 else { return nil }
        if let v4 = Self.parseIPv4(utf8, from: 0) {
            self.init(.v4(v4))
        } else if let v6 = Self.parseIPv6(utf8) {
            self.init(.v6(v6))
        } else {
            return nil
        }
    }

    /// The canonical text: dotted decimal, or IPv6 in lower case with the longest run of two or
    /// more zero groups (the first of equals) written `::`, and a dotted tail for the IPv4-mapped
    /// (`::ffff:0:0/96`) and IPv4-compatible (`::/96`) forms, as `inet_ntop` writes them.
    public var description: String {
        switch bits {
        case .v4(let bits):
            return Self.dotted(bits)
        case .v6(let groups):
            return Self.compressed(groups)
        }
    }

    // MARK: Reading

    private static let dot = UInt8(ascii: "."), colon = UInt8(ascii: ":")

    /// Four dotted decimal parts from `bytes[start...]` to the end, as 32 bits.
    private static func parseIPv4(_ bytes: [UInt8], from start: Int) -> UInt32? {
        var result: UInt32 = 0
        var parts = 0
        var value: UInt32 = 0
        var digits = 0
        for byte in bytes[start...] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // A part is "0", or digits that do not start with 0.
                if digits == 1 && value == 0 { return nil }
                value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
                digits += 1
                if value > 255 { return nil }
            case dot:
                guard digits > 0, parts < 3 else { return nil }
                result = result << 8 | value
                parts += 1
                value = 0
                digits = 0
            default:
                return nil
            }
        }
        guard digits > 0, parts == 3 else { return nil }
        return result << 8 | value
    }

    private static func parseIPv6(_ bytes: [UInt8]) -> Groups? {
        var groups = Groups(high: 0, low: 0)
        var count = 0  // groups written
        var gap: Int?  // where `::` stands, in groups
        var index = 0
        // A leading ':' must be the start of '::'.
        if bytes[0] == colon {
            guard bytes.count > 1, bytes[1] == colon else { return nil }
            index = 1
        }
        var tokenStart = index
        var value: UInt32 = 0
        var digits = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let digit = hexValue(byte) {
                guard digits < 4 else { return nil }
                value = value << 4 | digit
                digits += 1
                continue
            }
            if byte == colon {
                tokenStart = index
                if digits == 0 {
                    guard gap == nil else { return nil }
                    gap = count
                    continue
                }
                // A group ends here; a ':' may not end the text.
                guard index < bytes.count, count < 8 else { return nil }
                groups.set(count, UInt16(value))
                count += 1
                value = 0
                digits = 0
                continue
            }
            // A dotted IPv4 tail: the token read so far is its first part, read again as decimal.
            guard byte == dot, count <= 6, let v4 = parseIPv4(bytes, from: tokenStart) else { return nil }
            groups.set(count, UInt16(truncatingIfNeeded: v4 >> 16))
            groups.set(count + 1, UInt16(truncatingIfNeeded: v4))
            count += 2
            digits = 0
            index = bytes.count
        }
        if digits > 0 {
            guard count < 8 else { return nil }
            groups.set(count, UInt16(value))
            count += 1
        }
        if let gap {
            // `::` stands for one or more zero groups: it cannot stand in a full address.
            guard count < 8 else { return nil }
            let moved = count - gap
            var expanded = Groups(high: 0, low: 0)
            for i in 0..<gap { expanded.set(i, groups[i]) }
            for i in 0..<moved { expanded.set(8 - moved + i, groups[gap + i]) }
            return expanded
        }
        return count == 8 ? groups : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    // MARK: Writing

    private static func dotted(_ bits: UInt32) -> String {
        "\(bits >> 24).\(bits >> 16 & 0xFF).\(bits >> 8 & 0xFF).\(bits & 0xFF)"
    }

    private static func compressed(_ groups: Groups) -> String {
        // The longest run of zero groups, two or more long; the first one wins a tie.
        var best: (start: Int, length: Int) = (-1, 0)
        var run: (start: Int, length: Int) = (-1, 0)
        for i in 0..<8 {
            if groups[i] == 0 {
                run = run.start < 0 ? (i, 1) : (run.start, run.length + 1)
                if run.length > best.length { best = run }
            } else {
                run = (-1, 0)
            }
        }
        if best.length < 2 { best = (-1, 0) }

        var text = ""
        var i = 0
        while i < 8 {
            if i == best.start {
                text += "::"
                i += best.length
                continue
            }
            if i > 0 && i != best.start + best.length { text += ":" }
            // An IPv4-compatible or IPv4-mapped address ends in dotted decimal.
            if i == 6 && best.start == 0 && (best.length == 6 || (best.length == 5 && groups[5] == 0xFFFF)) {
                text += dotted(UInt32(groups[6]) << 16 | UInt32(groups[7]))
                break
            }
            text += String(groups[i], radix: 16)
            i += 1
        }
        return text
    }
}
