import IPData

/// What the CLI takes for a host name to resolve, where it expects an address: `localhost`, or
/// a dotted name whose last label has a top-level domain's shape (letters, or `xn--` for an
/// internationalised one), such as `example.com` or `www.example.test.`.
///
/// Kept conservative on purpose: each label is letters, digits and inner hyphens, at most 63
/// characters, the whole at most 253; no spaces, no underscores, no port, no scheme. A word
/// without a dot (`hello`), an ASN (`AS15169`) or an address is not a name, so a line of garbage
/// stays "not an address" and is never sent to a resolver.
enum HostName {
    /// Whether `text` is a host name by the rule above (and not an IP address).
    static func isHostName(_ text: String) -> Bool {
        // Every line of a list passes here: an IPv4 address (no letter) or an IPv6 one (a colon)
        // is told apart by one pass over its bytes, before anything is allocated.
        guard text.utf8.contains(where: isASCIILetter), !text.utf8.contains(UInt8(ascii: ":")) else { return false }
        var name = Substring(text)
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        if name.lowercased() == "localhost" { return true }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy(isLabel), let last = labels.last else { return false }
        let isTopLevel =
            last.lowercased().hasPrefix("xn--")
            || (last.utf8.count >= 2 && last.utf8.allSatisfy { isASCIILetter($0) })
        return isTopLevel && IPAddress(text) == nil
    }

    private static func isLabel(_ label: Substring) -> Bool {
        let bytes = label.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= 63 else { return false }
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        return isLetterOrDigit(first) && isLetterOrDigit(last)
            && bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
