/// The columns of CSV and table output: the `--fields` paths when given, else a default set.
enum Columns {
    /// The default CSV columns of an address lookup: the flat facts, and the nested ones most
    /// often filtered on.
    static let addressCSV = [
        "ip", "is_eu", "city", "region", "region_code", "country_name", "country_code", "continent_name",
        "continent_code", "latitude", "longitude", "postal", "calling_code", "asn.asn", "asn.name", "asn.domain",
        "asn.route", "asn.type", "company.name", "company.domain", "company.type", "carrier.name", "time_zone.name",
        "currency.code", "threat.is_tor", "threat.is_vpn", "threat.is_icloud_relay", "threat.is_proxy",
        "threat.is_datacenter", "threat.is_anonymous", "threat.is_known_attacker", "threat.is_known_abuser",
        "threat.is_threat", "threat.is_bogon", "threat.scores.threat_score", "threat.scores.trust_score",
    ]
    /// The default table (and Markdown) columns of an address lookup, in the order they are shown.
    static let addressTable = ["ip", "city", "region", "country_code", "asn.asn", "asn.name", "threat.is_threat"]
    /// The default table columns of an address lookup from the first kept to the first left out
    /// when a terminal is too narrow for all of them (see `TableWriter`).
    static let addressTablePriority = [
        "ip", "country_code", "city", "asn.name", "threat.is_threat", "asn.asn", "region",
    ]
    /// The default CSV columns of an ASN lookup; prefix and peer lists are left out.
    static let asnCSV = ["asn", "name", "domain", "usage", "num_ips", "registry", "country", "date", "status"]
    /// The default table (and Markdown) columns of an ASN lookup.
    static let asnTable = ["asn", "name", "domain", "usage", "num_ips", "country"]
    /// The default table columns of an ASN lookup, from the first kept to the first left out.
    static let asnTablePriority = ["asn", "name", "country", "usage", "domain", "num_ips"]
    /// The order in which a table of `kind`'s default columns keeps them when not all fit.
    static func tablePriority(kind: RecordKind) -> [String] {
        kind == .address ? addressTablePriority : asnTablePriority
    }

    /// The column a list adds for the addresses that failed.
    static let error = "error"
    /// The host name an address was resolved from: the CLI's field, not the API's (see `HostName`).
    static let host = "host"

    /// The columns for `format`: the selected paths or the default set; in a list of addresses an
    /// `ip` column first (unless the selection names it already), so that every row names its
    /// address, and in any list an `error` column at the end (unless the selection names it).
    static func columns(
        kind: RecordKind, format: OutputFormat, selection: FieldSelection?, shape: RecordShape,
        namesHosts: Bool = false
    ) -> [String] {
        var columns: [String]
        if let selection {
            columns = selection.paths
        } else {
            // Exhaustive on purpose: a new format or kind must choose its columns here.
            switch (kind, format) {
            case (.address, .table), (.address, .markdown): columns = addressTable
            case (.address, .csv), (.address, .tsv), (.address, .json), (.address, .jsonl): columns = addressCSV
            case (.asn, .table), (.asn, .markdown): columns = asnTable
            case (.asn, .csv), (.asn, .tsv), (.asn, .json), (.asn, .jsonl): columns = asnCSV
            }
        }
        if shape == .list, kind == .address, !columns.contains("ip") { columns.insert("ip", at: 0) }
        // Addresses resolved from names given on the command line: which name each came from.
        if namesHosts, selection == nil, let ip = columns.firstIndex(of: "ip") { columns.insert(host, at: ip + 1) }
        if shape == .list, !columns.contains(error) { columns.append(error) }
        return columns
    }
}
