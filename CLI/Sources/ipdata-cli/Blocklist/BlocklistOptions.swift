import ArgumentParser

/// `--blocklist FORMAT` and `--set-name NAME`: print no records but the addresses kept,
/// aggregated into the fewest CIDRs, as `bulk` and `filter` take them.
struct BlocklistOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "print no records but the addresses answered (with --where, those that match), aggregated into the "
                + "fewest CIDRs: \(BlocklistFormat.names)",
            valueName: "FORMAT"),
        completion: .list(BlocklistFormat.allCases.map(\.rawValue)))
    var blocklist: String?

    @Option(
        name: .customLong("set-name"),
        help: ArgumentHelp(
            "the set of --blocklist ipset or nft (default \(BlocklistFormat.defaultSetName)): letters, digits and "
                + "_, at most 30; the IPv6 set is NAME6. nft takes none of its own words (set, type, and)",
            valueName: "NAME"))
    var setName: String?

    /// The blocklist asked for and its set's name, checked; nil without `--blocklist`.
    func checked() throws -> (format: BlocklistFormat, setName: String)? {
        guard let blocklist else {
            if setName != nil { throw UsageError("--set-name names the set of --blocklist ipset or nft") }
            return nil
        }
        guard let format = BlocklistFormat(rawValue: blocklist.lowercased()) else {
            throw UsageError("--blocklist must be \(BlocklistFormat.names)")
        }
        guard let setName else { return (format, BlocklistFormat.defaultSetName) }
        guard format == .ipset || format == .nft else {
            throw UsageError("--set-name names the set of --blocklist ipset or nft")
        }
        guard BlocklistFormat.isSetName(setName) else {
            throw UsageError("--set-name must start with a letter and hold letters, digits and _ (at most 30)")
        }
        return (format, setName)
    }
}
