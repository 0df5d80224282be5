import IPData

/// Finds IPv4 and IPv6 addresses in arbitrary text, in the forms logs write them: `1.2.3.4:443`,
/// `[2001:db8::1]:8080`, `::ffff:1.2.3.4`, `fe80::1%eth0`, in quotes, URLs or sentences.
///
/// It looks at runs of the bytes an address is written with (hex digits, `.` and `:`), and takes a
/// run as an address only when the library reads it as one (`IPAddress`, the same rule as every
/// lookup) and it stands alone: no letter or digit right before or after it. So these are no
/// addresses: version numbers (`1.2.3.4.5`), dates and times (`2026.11.30`, `18:55:55`),
/// out-of-range parts (`256.1.2.3`), IPv4 with leading zeros (`010.1.1.1`, which C libraries read
/// as octal or decimal: ambiguous, and refused by the API's rule too), MAC addresses
/// (`00:1a:2b:3c:4d:5e`), words (`std::vector`), the unspecified IPv6 address (`::`) and versions
/// after a product's name and a slash (`Chrome/119.0.0.0`, in every browser's user agent), while
/// an address in a URL's path is one (`/v1/lookup/8.8.8.8`, `https://api.ipdata.co/8.8.8.8`), and
/// so is one after a label with an underscore (squid's `HIER_DIRECT/203.0.113.7`). A
/// dot or colon that ends a sentence or a field (`from 1.2.3.4.`, `2001:db8::1:`) is not part of
/// the address, but a token that goes on with a letter (`2a01:4f8::g1`) is none. A reverse-DNS
/// name is the address it names (`4.3.2.1.in-addr.arpa` is 1.2.3.4, 32 nibbles in `ip6.arpa`
/// an IPv6 address), or none. An IPv4-mapped IPv6 address is its IPv4 address; a zone (`%eth0`)
/// is left out.
struct AddressScanner {
    /// One address found in the text.
    struct Match: Equatable {
        /// Where its text starts and ends in the bytes scanned (the prefix length included).
        let range: Range<Int>
        let address: IPAddress
        /// The prefix length after a `/`, when networks are wanted and one follows.
        let prefixLength: Int?

        /// The address in canonical form; for a network, its first address and `/prefix`, so that
        /// `10.0.0.1/8` is the network `10.0.0.0/8` that `ipdata bulk` reads.
        var text: String {
            prefixLength.map { "\(address.network(prefixLength: $0))/\($0)" } ?? address.description
        }
    }

    /// Whether `1.2.3.0/24` is a network (`--cidrs`) rather than the address `1.2.3.0`.
    var includesNetworks = false

    /// The byte classes: what may be part of an address's run, and what may not stand next to one.
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = runByte | wordByte | digitByte }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "f") { table[Int(byte)] = runByte | wordByte }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "F") { table[Int(byte)] = runByte | wordByte }
        for byte in UInt8(ascii: "g")...UInt8(ascii: "z") { table[Int(byte)] = wordByte }
        for byte in UInt8(ascii: "G")...UInt8(ascii: "Z") { table[Int(byte)] = wordByte }
        table[Int(UInt8(ascii: "_"))] = wordByte
        table[Int(UInt8(ascii: "."))] = runByte | dotByte
        table[Int(UInt8(ascii: ":"))] = runByte | colonByte
        // What a URL's host or path segment holds besides letters and digits: RFC 3986's `pchar`,
        // and the brackets of an IPv6 host (`[2001:db8::1]:8080`).
        for byte in "-._~%!$&'*+,;=:@[]".utf8 { table[Int(byte)] |= segmentByte }
        return table
    }()
    private static let runByte: UInt8 = 1, wordByte: UInt8 = 2, dotByte: UInt8 = 4, colonByte: UInt8 = 8
    private static let digitByte: UInt8 = 16, segmentByte: UInt8 = 32

    /// Calls `found` with every address in `bytes`, in order. `found` returns where to go on
    /// scanning (its match's end, or further: the next line), or nil to stop.
    func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ found: (Match) -> Int?) {
        let classes = Self.classes
        let count = bytes.count
        var index = 0
        while index < count {
            // Skip to the next run.
            while index < count, classes[Int(bytes[index])] & Self.runByte == 0 { index += 1 }
            guard index < count else { return }
            let start = index
            var seen: UInt8 = 0
            while index < count {
                let kind = classes[Int(bytes[index])]
                guard kind & Self.runByte != 0 else { break }
                seen |= kind
                index += 1
            }
            // Most runs are words of hex letters, numbers and times: no address in them.
            guard seen & Self.dotByte != 0 && seen & Self.digitByte != 0 || seen & Self.colonByte != 0 else { continue }
            let runEnd = index
            for match in addresses(in: bytes, run: start..<runEnd) {
                guard let next = found(match) else { return }
                index = max(index, next)
                if index > runEnd { break }
            }
        }
    }

    private static let colon = UInt8(ascii: ":"), dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")

    private func isWordByte(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        index >= 0 && index < bytes.count && Self.classes[Int(bytes[index])] & Self.wordByte != 0
    }

    /// The addresses in the run `run` of `bytes`: the run itself, trimmed of the punctuation around
    /// it, or else the IPv4 addresses between its colons (`1.2.3.4:443`, `host:1.2.3.4`).
    private func addresses(in bytes: UnsafeBufferPointer<UInt8>, run: Range<Int>) -> [Match] {
        var lower = run.lowerBound
        let first = bytes[lower]
        // A letter, digit or underscore right before the run joins it to a word (`v1.2.3.4`,
        // `x.1.2.3.4`), unless a single colon separates them (`ip:1.2.3.4`); `::` starts an address.
        let startsWithColon = first == Self.colon && (lower + 1 >= run.upperBound || bytes[lower + 1] != Self.colon)
        if !startsWithColon, isWordByte(bytes, lower - 1) { return [] }
        // `Chrome/119.0.0.0`, `Safari/537.36`: a product's version, not an address. A URL's host
        // follows `//`, and a part of its path follows another part (`/v1/lookup/8.8.8.8`,
        // `https://api.ipdata.co/8.8.8.8`) or a space (`GET /8.8.8.8`).
        if lower >= 2, bytes[lower - 1] == Self.slash, isWordByte(bytes, lower - 2),
            isProductName(bytes, endingBefore: lower - 1)
        {
            return []
        }
        if startsWithColon || first == Self.dot { lower += 1 }
        // After the run, the same: only punctuation may end it (`1.2.3.4.`, `2001:db8::1:` before a word).
        let last = bytes[run.upperBound - 1]
        if last != Self.dot, last != Self.colon, isWordByte(bytes, run.upperBound) { return [] }
        guard lower < run.upperBound else { return [] }
        // `4.3.2.1.in-addr.arpa` names 1.2.3.4, and a name of 32 nibbles in ip6.arpa an IPv6 address.
        if last == Self.dot, let reverse = reverseName(in: bytes, lower..<run.upperBound) {
            return reverse.map { [$0] } ?? []
        }
        if let match = trimmedAddress(in: bytes, lower..<run.upperBound) {
            // `2a01:4f8::g1`: an IPv6 token that goes on past the run is no address, nor a prefix of one.
            if last == Self.colon, isWordByte(bytes, run.upperBound), case .v6 = match.address.bits { return [] }
            return [match]
        }
        // No address as a whole: the dotted parts between colons may be IPv4 addresses.
        var matches: [Match] = []
        var segmentStart = lower
        for index in lower...run.upperBound where index == run.upperBound || bytes[index] == Self.colon {
            let segment = segmentStart..<index
            segmentStart = index + 1
            guard segment.count >= 7, segment != lower..<run.upperBound else { continue }
            if let match = trimmedAddress(in: bytes, segment), case .v4 = match.address.bits { matches.append(match) }
        }
        return matches
    }

    /// Whether the word that ends before the slash at `slash` names a product, whose version
    /// follows (`Chrome/`, `curl/`): a word after a space, a bracket or a quote. A part of a URL's
    /// path or its host follows another slash instead (`/lookup/`, `//api.ipdata.co/`), and a
    /// label with an underscore is no product (squid's `HIER_DIRECT/`, which the peer's address
    /// follows).
    private func isProductName(_ bytes: UnsafeBufferPointer<UInt8>, endingBefore slash: Int) -> Bool {
        let classes = Self.classes
        var index = slash - 1
        while index >= 0 {
            let byte = bytes[index]
            if byte == Self.slash || byte == UInt8(ascii: "_") { return false }
            guard classes[Int(byte)] & (Self.wordByte | Self.segmentByte) != 0 else { return true }
            index -= 1
        }
        return true
    }

    /// For a run of dotted parts that ends with a dot (`range`, that dot included) and continues
    /// with the label `in-addr` or `ip6`: the match of the address the reverse-DNS name stands
    /// for (in `in-addr.arpa` or `ip6.arpa`), or `.some(nil)` when it names none (a zone such as
    /// `2.1.in-addr.arpa`, parts out of range, another domain). nil when no such label follows.
    private func reverseName(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Match?? {
        let end = range.upperBound
        // Whether the labels `suffix` follow the run, and end there.
        func follows(_ suffix: String) -> Bool {
            let suffix = Array(suffix.utf8)
            guard end + suffix.count <= bytes.count else { return false }
            for (offset, byte) in suffix.enumerated() where bytes[end + offset] | 0x20 != byte { return false }
            let after = end + suffix.count
            return !isWordByte(bytes, after) && (after == bytes.count || bytes[after] != UInt8(ascii: "-"))
        }
        let parts = UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<(end - 1)]).split(
            separator: Self.dot, omittingEmptySubsequences: false)
        if follows("in-addr") {
            guard follows("in-addr.arpa"), parts.count == 4 else { return .some(nil) }
            let text = parts.reversed().map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
            guard let address = IPAddress(text), case .v4 = address.bits else { return .some(nil) }
            return Match(range: range.lowerBound..<(end + 12), address: address, prefixLength: nil)
        }
        if follows("ip6") {
            guard follows("ip6.arpa"), parts.count == 32, parts.allSatisfy({ $0.count == 1 }) else { return .some(nil) }
            var groups = ""
            for (index, nibble) in parts.reversed().enumerated() {
                if index > 0, index % 4 == 0 { groups += ":" }
                groups += String(decoding: nibble, as: UTF8.self)
            }
            guard let address = IPAddress(groups), case .v6(let bits) = address.bits, bits.high != 0 || bits.low != 0
            else {
                return .some(nil)
            }
            return Match(range: range.lowerBound..<(end + 8), address: address.unmappingIPv4, prefixLength: nil)
        }
        return nil
    }

    /// The address in `bytes[range]`, or in it without up to two dots or colons at its end (a
    /// sentence's full stop, a field's colon).
    private func trimmedAddress(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Match? {
        var upper = range.upperBound
        for trimmed in 0...2 {
            guard upper > range.lowerBound else { return nil }
            if let address = IPAddress(bytes: bytes, range.lowerBound..<upper) {
                // `::` alone is punctuation far more often than the unspecified address (`Foo :: bar`).
                if case .v6(let groups) = address.bits, groups.high == 0, groups.low == 0 { return nil }
                return match(address, in: bytes, range: range.lowerBound..<upper, wasTrimmed: trimmed > 0)
            }
            let last = bytes[upper - 1]
            guard trimmed < 2, last == Self.dot || last == Self.colon else { return nil }
            upper -= 1
        }
        return nil
    }

    /// `address`, found at `range`, with its prefix length when networks are wanted and a `/`
    /// and one follow it directly.
    private func match(_ address: IPAddress, in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, wasTrimmed: Bool)
        -> Match
    {
        let plain = Match(range: range, address: address.unmappingIPv4, prefixLength: nil)
        // A mapped address's prefix would count IPv6 bits: it is no IPv4 network.
        guard includesNetworks, !wasTrimmed, address.unmappingIPv4 == address, range.upperBound < bytes.count,
            bytes[range.upperBound] == Self.slash
        else { return plain }
        // `/` and 1 to 3 digits, no leading zero, within the address's bits, and then no word.
        var end = range.upperBound + 1
        var value = 0
        while end < bytes.count, end - range.upperBound <= 4, Self.classes[Int(bytes[end])] & Self.digitByte != 0 {
            value = value * 10 + Int(bytes[end] - 48)
            end += 1
        }
        let digits = end - range.upperBound - 1
        guard (1...3).contains(digits), digits == 1 || bytes[range.upperBound + 1] != 48, value <= address.bitWidth,
            !isWordByte(bytes, end)
        else { return plain }
        return Match(range: range.lowerBound..<end, address: plain.address, prefixLength: value)
    }
}

extension IPAddress {
    /// The address written in `bytes[range]`, if exactly one is.
    init?(bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard range.count <= 45 else { return nil }
        self.init(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }
}
