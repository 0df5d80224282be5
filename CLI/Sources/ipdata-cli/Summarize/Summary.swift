import Foundation
import IPData

/// The totals and top values of a list of addresses and their answers, kept in memory bounded by
/// the number of distinct values (addresses, countries, networks, blocklists), whatever the
/// number of records.
///
/// An address of the input is looked up once: `shouldLookUp(_:)` says so for its first reading,
/// and a repeat is counted with that first answer, when it is in or as soon as it comes.
struct Summary {
    /// Records read: addresses, answered or not.
    private(set) var total = 0
    /// Distinct addresses, in canonical form, with how often each was read and its answer.
    private var addresses: [String: AddressTally] = [:]
    private(set) var publicAddresses = 0
    private(set) var privateAddresses = 0
    /// Records without an answer: refused by the API, failed, or not addresses.
    private(set) var failed = 0
    private(set) var countries: [String: Int] = [:]
    /// The records of each country, by its ISO 3166-1 alpha-2 code (the map's shading).
    private(set) var countryCodes: [String: Int] = [:]
    private(set) var networks: [String: Int] = [:]
    private(set) var companyTypes: [String: Int] = [:]
    private(set) var threats: [String: Int] = [:]
    private(set) var blocklists: [String: Int] = [:]

    /// The lookups of the input's addresses, by key (canonical form, or the text of one that is
    /// no address): waiting for the answer, with the repeats read meanwhile, or answered.
    private var lookups: [String: Lookup] = [:]
    /// Distinct addresses answered locally (private or reserved): never sent.
    private(set) var answeredLocally = 0
    /// Distinct entries looked up that are no IP address: never sent.
    private(set) var invalid = 0
    /// Lines that were neither an address nor a record (a log line, a JSON object without `ip`).
    private(set) var unreadable = 0
    /// Why the summary is partial (the API refused further lookups), nil when it is whole.
    var partialReason: String?
    /// Records without an answer that were not looked up: after the API refused further lookups,
    /// or for want of a key.
    private(set) var notLookedUp = 0

    /// How often one distinct address was read, and what its first answer said.
    struct AddressTally {
        var count = 0
        var digest: Digest?
    }

    /// One row of the top addresses: the address, how often it was read, and its answer's digest
    /// (nil when it has none).
    struct TopAddress {
        let address: String
        let count: Int
        let digest: Digest?
    }

    private enum Lookup {
        case waiting(repeats: Int)
        case answered(Digest?)
        /// Not looked up: the API refused further lookups.
        case refused
    }

    var unique: Int { addresses.count }
    /// Whether the summary leaves out answers that the API refused to give.
    var isPartial: Bool { partialReason != nil }
    /// The distinct addresses (and entries that are none) the input asked to look up.
    var distinctLookups: Int { lookups.count }

    /// The threat flags counted, as the API names them.
    static let threatNames = [
        "is_tor", "is_vpn", "is_proxy", "is_datacenter", "is_known_attacker", "is_known_abuser", "is_threat",
    ]

    /// What the summary counts of one answer.
    struct Digest {
        var country: String?
        /// The ISO 3166-1 alpha-2 code, upper-cased, when the answer has one.
        var countryCode: String?
        var network: String?
        var companyType: String?
        var threats: [String] = []
        var blocklists: [String] = []

        init(response: IPResponse) {
            country = Self.country(name: response.countryName, code: response.countryCode)
            countryCode = Self.code(response.countryCode)
            if let asn = response.asn, asn.asn != nil || asn.name != nil {
                network = [asn.asn, asn.name].compactMap { $0 }.joined(separator: " ")
            }
            companyType = response.asn?.type ?? response.company?.type
            if let threat = response.threat {
                let flags = [
                    threat.isTor, threat.isVPN, threat.isProxy, threat.isDatacenter, threat.isKnownAttacker,
                    threat.isKnownAbuser, threat.isThreat,
                ]
                threats = zip(Self.threatNamesInOrder, flags).filter { $0.1 == true }.map(\.0)
                blocklists = Array(Set((threat.blocklists ?? []).compactMap(\.name))).sorted()
            }
        }

        /// The digest of a record someone else wrote: `value` gives the value at a dotted path
        /// (`asn.name`), whether the record nests it (`ipdata bulk`'s JSON) or names a column or
        /// key so (CSV, `ipdata enrich`'s JSON); text values of CSV are read as JSON would be.
        init(record value: (String) -> JSONValue?) {
            func text(_ path: String) -> String? {
                switch value(path) {
                case .string(let string)? where !string.isEmpty: return string
                case .integer(let number)?: return String(number)
                default: return nil
                }
            }
            country = Self.country(name: text("country_name"), code: text("country_code"))
            countryCode = Self.code(text("country_code"))
            let network = [text("asn.asn"), text("asn.name")].compactMap { $0 }
            if !network.isEmpty { self.network = network.joined(separator: " ") }
            companyType = text("asn.type") ?? text("company.type")
            threats = Self.threatNamesInOrder.filter { name in
                switch value("threat." + name) {
                case .bool(true)?: return true
                case .string(let flag)?: return flag.lowercased() == "true"
                default: return false
                }
            }
            if case .array(let entries)? = value("threat.blocklists") {
                blocklists = Array(
                    Set(
                        entries.compactMap { entry -> String? in
                            guard case .object(let object) = entry, case .string(let name)? = object["name"] else {
                                return nil
                            }
                            return name
                        })
                ).sorted()
            }
        }

        private static let threatNamesInOrder = Summary.threatNames

        /// `code` upper-cased when it is two letters, the shape of an alpha-2 code.
        private static func code(_ code: String?) -> String? {
            guard let code, code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
            return code.uppercased()
        }

        /// `United States (US)`; the name or the code alone when the answer has only one.
        private static func country(name: String?, code: String?) -> String? {
            guard let name else { return code }
            return code.map { "\(name) (\($0))" } ?? name
        }
    }

    /// The key of an entry to look up: its canonical form, else its text.
    private static func key(_ address: String) -> String {
        IPAddress(address)?.description ?? "\u{0}" + address
    }

    /// Whether `address`, read from the input, must be looked up: true the first time; a repeat
    /// is counted with the first one's answer (now, or when it comes) and is not sent again.
    mutating func shouldLookUp(_ address: String) -> Bool {
        let key = Self.key(address)
        switch lookups[key] {
        case nil:
            lookups[key] = .waiting(repeats: 0)
            return true
        case .waiting(let repeats)?:
            lookups[key] = .waiting(repeats: repeats + 1)
        case .answered(let digest)?:
            add(address: address, digest: digest)
        case .refused?:
            addNotLookedUp(address: address)
        }
        return false
    }

    /// Adds the result of the lookup of `address`, and of the repeats of it read so far; `response`
    /// is nil when there is no answer (a failure, or the API's refusal). `refused`: the API
    /// refused further lookups, so the records are also counted as not looked up.
    mutating func add(lookedUp address: String, response: IPResponse?, refused: Bool = false) {
        let key = Self.key(address)
        if let parsed = IPAddress(address) {
            if parsed.scope != .public { answeredLocally += 1 }
        } else {
            invalid += 1
        }
        let digest = response.flatMap { $0.message == nil ? Digest(response: $0) : nil }
        var count = 1
        if case .waiting(let repeats)? = lookups[key] { count += repeats }
        lookups[key] = refused ? .refused : .answered(digest)
        if refused { notLookedUp += count }
        for _ in 0..<count { add(address: address, digest: digest) }
    }

    /// Adds a record without an answer that is not looked up (the API refused further lookups, or
    /// there is no key): counted as without an answer, and as not looked up.
    mutating func addNotLookedUp(address: String) {
        notLookedUp += 1
        add(address: address, digest: nil)
    }

    /// Adds a line that is neither an address nor a record: counted as without an answer.
    mutating func addUnreadable() {
        unreadable += 1
        add(address: "", digest: nil)
    }

    /// Adds one record: `address` as read, with the API's answer if there is one.
    mutating func add(address: String, response: IPResponse?) {
        add(address: address, digest: response.flatMap { $0.message == nil ? Digest(response: $0) : nil })
    }

    /// Adds one record: `address` as read, with what it says of the answer (nil: none).
    mutating func add(address: String, digest: Digest?) {
        total += 1
        let parsed = IPAddress(address.trimmingCharacters(in: .whitespaces))
        if let parsed {
            let key = parsed.description
            addresses[key, default: AddressTally()].count += 1
            if digest != nil, addresses[key]?.digest == nil { addresses[key]?.digest = digest }
            if parsed.scope == .public { publicAddresses += 1 } else { privateAddresses += 1 }
        }
        guard let digest else {
            failed += 1
            return
        }
        if let country = digest.country { countries[country, default: 0] += 1 }
        if let code = digest.countryCode { countryCodes[code, default: 0] += 1 }
        if let network = digest.network { networks[network, default: 0] += 1 }
        if let type = digest.companyType { companyTypes[type, default: 0] += 1 }
        for name in digest.threats { threats[name, default: 0] += 1 }
        for name in digest.blocklists { blocklists[name, default: 0] += 1 }
    }

    /// The `count` most frequent values of `counts`, most first (ties by name).
    static func top(_ counts: [String: Int], _ count: Int) -> [(value: String, count: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(count)
            .map { (value: $0.key, count: $0.value) }
    }

    /// The `count` addresses read most often, most first (ties in address order).
    func topAddresses(_ count: Int) -> [TopAddress] {
        addresses.sorted { left, right in
            guard left.value.count == right.value.count else { return left.value.count > right.value.count }
            return Self.precedes(left.key, right.key)
        }
        .prefix(count).map { TopAddress(address: $0.key, count: $0.value.count, digest: $0.value.digest) }
    }

    /// Whether `left` comes before `right`: IPv4 before IPv6, each in numeric order.
    private static func precedes(_ left: String, _ right: String) -> Bool {
        guard let a = IPAddress(left), let b = IPAddress(right) else { return left < right }
        switch (a.ipv4Bits, b.ipv4Bits, a.ipv6Bits, b.ipv6Bits) {
        case (let x?, let y?, _, _): return x < y
        case (_?, nil, _, _): return true
        case (nil, _?, _, _): return false
        case (_, _, let x?, let y?): return x.high != y.high ? x.high < y.high : x.low < y.low
        default: return left < right
        }
    }

    /// The first line of a partial summary: what is missing and why.
    var partialLine: String? {
        partialReason.map { reason in
            "partial summary: \(reason); \(notLookedUp) record\(notLookedUp == 1 ? " was" : "s were") not looked "
                + "up and \(notLookedUp == 1 ? "is" : "are") counted as without an answer"
        }
    }

    /// What the lookups cost: of the distinct addresses looked up, how many the cache answered,
    /// how many were answered locally, how many were invalid, and how many were sent in how many
    /// requests (as the stream's events counted them).
    struct Cost {
        var cached = 0
        var sent = 0
        var requests = 0
        var singleLookups = false
    }

    /// The summary as JSON: totals, the lookups, then each list's top `count`; `partial` and
    /// `not_looked_up` when the API refused further lookups.
    func json(top count: Int, cost: Cost = Cost()) -> String {
        func list(_ counts: [String: Int]) -> [[String: Any]] {
            Self.top(counts, count).map { ["value": $0.value, "count": $0.count] }
        }
        let top = topAddresses(count).map { row -> [String: Any] in
            var entry: [String: Any] = ["ip": row.address, "count": row.count, "answered": row.digest != nil]
            if let digest = row.digest {
                entry["threats"] = digest.threats
                if let country = digest.country { entry["country"] = country }
                if let code = digest.countryCode { entry["country_code"] = code }
                if let network = digest.network { entry["network"] = network }
                if let type = digest.companyType { entry["company_type"] = type }
            }
            return entry
        }
        var object: [String: Any] = [
            "total": total, "unique": unique, "public": publicAddresses, "private": privateAddresses,
            "failed": failed, "countries": list(countries), "networks": list(networks),
            "company_types": list(companyTypes),
            "threats": Dictionary(uniqueKeysWithValues: Self.threatNames.map { ($0, threats[$0] ?? 0) }),
            "blocklists": list(blocklists), "top_addresses": top, "not_looked_up": notLookedUp,
            "lookups": [
                "distinct": distinctLookups, "cached": cost.cached, "answered_locally": answeredLocally,
                "invalid": invalid, "sent": cost.sent, "requests": cost.requests,
            ],
        ]
        if let partialReason { object["partial"] = partialReason }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The lookups line of the table, each number with its unit, as the dry run says it:
    /// `lookups    of 360 distinct addresses: 12 in the cache, 30 answered locally (private or
    /// reserved), 318 sent in 4 bulk requests`. Nil when the input asked for no lookup (records).
    func lookupsLine(cost: Cost) -> String? {
        guard distinctLookups > 0 else { return nil }
        var parts = ["\(cost.cached) in the cache"]
        if answeredLocally > 0 { parts.append("\(answeredLocally) answered locally (private or reserved)") }
        if invalid > 0 { parts.append("\(invalid) invalid") }
        let kind = cost.singleLookups ? "single lookup" : "bulk request"
        parts.append("\(cost.sent) sent in \(cost.requests) \(kind)\(cost.requests == 1 ? "" : "s")")
        let distinct = "\(distinctLookups) distinct address\(distinctLookups == 1 ? "" : "es")"
        return "lookups    of \(distinct): " + parts.joined(separator: ", ")
    }

    /// The top addresses as aligned text: count, address, country code, network, threat flags.
    private func addressSection(_ rows: [TopAddress]) -> [String] {
        guard !rows.isEmpty else { return [] }
        let cells = rows.map { row -> [String] in
            guard let digest = row.digest else { return [String(row.count), row.address, "-", "(no answer)", ""] }
            return [
                String(row.count), row.address, digest.countryCode ?? "-",
                TerminalText.escaped(digest.network ?? "-"), digest.threats.joined(separator: ","),
            ]
        }
        let widths = (0..<5).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return ["", "top addresses"]
            + cells.map { cell in
                let count = String(repeating: " ", count: widths[0] - cell[0].count) + cell[0]
                let padded = (1..<4).map { cell[$0] + String(repeating: " ", count: widths[$0] - cell[$0].count) }
                let line = (["  " + count] + padded + [cell[4]]).joined(separator: "  ")
                return String(line.reversed().drop { $0 == " " }.reversed())
            }
    }

    /// The summary as aligned text: totals, the lookups, then each list's top `count`.
    func table(top count: Int, cost: Cost = Cost()) -> String {
        var lines = partialLine.map { [$0] } ?? []
        lines += [
            "addresses  \(total) total, \(unique) unique, \(publicAddresses) public, \(privateAddresses) private"
                + (failed > 0 ? ", \(failed) without an answer" : "")
        ]
        if let lookups = lookupsLine(cost: cost) { lines.append(lookups) }
        func section(_ title: String, _ rows: [(value: String, count: Int)]) {
            guard !rows.isEmpty else { return }
            lines.append("")
            lines.append(title)
            let width = String(rows.map(\.count).max() ?? 0).count
            for row in rows {
                let number = String(row.count)
                lines.append(
                    "  " + String(repeating: " ", count: width - number.count) + number + "  "
                        + TerminalText.escaped(row.value))
            }
        }
        section("top countries", Self.top(countries, count))
        section("top networks", Self.top(networks, count))
        section("company types", Self.top(companyTypes, count))
        section("threats", Self.threatNames.map { (value: $0, count: threats[$0] ?? 0) })
        section("top blocklists", Self.top(blocklists, count))
        lines += addressSection(topAddresses(count))
        return lines.joined(separator: "\n") + "\n"
    }
}
