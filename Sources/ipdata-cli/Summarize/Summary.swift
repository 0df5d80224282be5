import Foundation
import IPData

/// The totals and top values of a list of addresses and their answers, kept in memory bounded by
/// the number of distinct values (addresses, countries, networks, blocklists), whatever the
/// number of records.
struct Summary {
    /// Records read: addresses, answered or not.
    private(set) var total = 0
    /// Distinct addresses, in canonical form.
    private var addresses: Set<String> = []
    private(set) var publicAddresses = 0
    private(set) var privateAddresses = 0
    /// Records without an answer: refused by the API, failed, or not addresses.
    private(set) var failed = 0
    private(set) var countries: [String: Int] = [:]
    private(set) var networks: [String: Int] = [:]
    private(set) var companyTypes: [String: Int] = [:]
    private(set) var threats: [String: Int] = [:]
    private(set) var blocklists: [String: Int] = [:]

    var unique: Int { addresses.count }

    /// The threat flags counted, as the API names them.
    static let threatNames = [
        "is_tor", "is_vpn", "is_proxy", "is_datacenter", "is_known_attacker", "is_known_abuser", "is_threat",
    ]

    /// Adds one record: `address` as read, with the API's answer if there is one.
    mutating func add(address: String, response: IPResponse?) {
        total += 1
        let parsed = IPAddress(address.trimmingCharacters(in: .whitespaces))
        if let parsed {
            addresses.insert(parsed.text)
            if parsed.scope == .public { publicAddresses += 1 } else { privateAddresses += 1 }
        }
        guard let response, response.message == nil else {
            failed += 1
            return
        }
        let country = [response.countryName, response.countryCode.map { "(\($0))" }].compactMap { $0 }
        if !country.isEmpty { countries[country.joined(separator: " "), default: 0] += 1 }
        if let asn = response.asn, asn.asn != nil || asn.name != nil {
            networks[[asn.asn, asn.name].compactMap { $0 }.joined(separator: " "), default: 0] += 1
        }
        if let type = response.asn?.type ?? response.company?.type { companyTypes[type, default: 0] += 1 }
        if let threat = response.threat {
            let flags = [
                threat.isTor, threat.isVPN, threat.isProxy, threat.isDatacenter, threat.isKnownAttacker,
                threat.isKnownAbuser, threat.isThreat,
            ]
            for (name, flag) in zip(Self.threatNames, flags) where flag == true { threats[name, default: 0] += 1 }
            for name in Set((threat.blocklists ?? []).compactMap(\.name)) { blocklists[name, default: 0] += 1 }
        }
    }

    /// The `count` most frequent values of `counts`, most first (ties by name).
    static func top(_ counts: [String: Int], _ count: Int) -> [(value: String, count: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(count)
            .map { (value: $0.key, count: $0.value) }
    }

    /// The summary as JSON: totals, then each list's top `count`.
    func json(top count: Int) -> String {
        func list(_ counts: [String: Int]) -> [[String: Any]] {
            Self.top(counts, count).map { ["value": $0.value, "count": $0.count] }
        }
        let object: [String: Any] = [
            "total": total, "unique": unique, "public": publicAddresses, "private": privateAddresses,
            "failed": failed, "countries": list(countries), "networks": list(networks),
            "company_types": list(companyTypes),
            "threats": Dictionary(uniqueKeysWithValues: Self.threatNames.map { ($0, threats[$0] ?? 0) }),
            "blocklists": list(blocklists),
        ]
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The summary as aligned text: totals, then each list's top `count`.
    func table(top count: Int) -> String {
        var lines = [
            "addresses  \(total) total, \(unique) unique, \(publicAddresses) public, \(privateAddresses) private"
                + (failed > 0 ? ", \(failed) without an answer" : "")
        ]
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
        return lines.joined(separator: "\n") + "\n"
    }
}
