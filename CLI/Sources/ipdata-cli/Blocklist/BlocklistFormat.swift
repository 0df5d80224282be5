import IPData

/// What `--blocklist` prints: the addresses that match, aggregated into the fewest CIDRs
/// (`AddressInterval.merged`), as a plain list, an `ipset restore` file or an nftables set.
enum BlocklistFormat: String, CaseIterable {
    /// One CIDR a line, IPv4 first, then IPv6 (`1.2.3.4/32`, `2001:db8::/48`).
    case cidr
    /// For `ipset restore`: a `hash:net` set of each family (NAME for IPv4, NAME6 for IPv6),
    /// created when missing and emptied, then filled.
    case ipset
    /// For `nft -f`: the sets NAME (`ipv4_addr`) and NAME6 (`ipv6_addr`) of `table inet filter`,
    /// with `flags interval`.
    case nft

    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The set name when `--set-name` gives none.
    static let defaultSetName = "ipdata_blocklist"

    /// Whether `name` can name an ipset set and an nftables set: letters, digits and `_`,
    /// starting with a letter (nft's identifiers, unquoted: `nft` 1.0 takes no quoted set name),
    /// at most 30 characters (ipset allows 31, and NAME6 adds one).
    static func isSetName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter, name.count <= 30 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The text of the blocklist of `intervals` (merged: see `AddressInterval.merged`), each line
    /// ending with `\n`.
    func text(of intervals: [AddressInterval], setName: String) -> String {
        let ipv4 = intervals.filter { $0.family == .v4 }.flatMap(Self.cidrs)
        let ipv6 = intervals.filter { $0.family == .v6 }.flatMap(Self.cidrs)
        switch self {
        case .cidr:
            return (ipv4 + ipv6).map { $0 + "\n" }.joined()
        case .ipset:
            var lines: [String] = []
            for (name, family, cidrs) in [(setName, "inet", ipv4), (setName + "6", "inet6", ipv6)] {
                // The default maximum of a set is 65,536 entries: more are refused.
                let most = max(65_536, cidrs.count)
                lines.append("create \(name) hash:net family \(family) maxelem \(most) -exist")
                lines.append("flush \(name)")
                lines += cidrs.map { "add \(name) \($0) -exist" }
            }
            return lines.map { $0 + "\n" }.joined()
        case .nft:
            var lines = ["table inet filter {"]
            for (name, type, cidrs) in [(setName, "ipv4_addr", ipv4), (setName + "6", "ipv6_addr", ipv6)] {
                lines += ["\tset \(name) {", "\t\ttype \(type)", "\t\tflags interval"]
                // nft refuses an empty `elements = { }`: an empty set has none.
                if !cidrs.isEmpty {
                    lines.append("\t\telements = {")
                    lines += cidrs.indices.map { "\t\t\t\(cidrs[$0])\($0 == cidrs.count - 1 ? "" : ",")" }
                    lines.append("\t\t}")
                }
                lines.append("\t}")
            }
            lines.append("}")
            return lines.map { $0 + "\n" }.joined()
        }
    }

    private static func cidrs(_ interval: AddressInterval) -> [String] {
        interval.networks.map { "\($0.address)/\($0.prefixLength)" }
    }
}
