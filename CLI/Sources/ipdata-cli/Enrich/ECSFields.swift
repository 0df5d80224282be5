import Foundation
import IPData

/// The fields of Elastic Common Schema (ECS) that `ipdata enrich --as ecs` adds to a JSON line,
/// from the API's answer for an address on one side (`source`, `destination`…): `geo`, `as`,
/// and an element of `threat.enrichments` for an address the threat block flags.
enum ECSFields {
    // ECS reference followed: elastic.co/guide/en/ecs/current (ecs-geo, ecs-as, ecs-threat: threat.enrichments).

    /// The API fields that the ECS fields are made of, as dotted paths.
    static let apiFields = [
        "city", "region", "region_code", "country_name", "country_code", "continent_name", "continent_code",
        "latitude", "longitude", "postal", "time_zone.name", "asn.asn", "asn.name", "threat",
    ]

    /// The members to add under `side` for an address answered with `values` (the value of each
    /// of `apiFields`, by path): `ip`, `geo` and `as`, each only with what the answer has.
    static func side(address: String, values: [String: JSONValue]) -> JSONValue {
        var geo: [String: JSONValue] = [:]
        let names = [
            ("country_code", "country_iso_code"), ("country_name", "country_name"), ("city", "city_name"),
            ("region", "region_name"), ("continent_code", "continent_code"), ("continent_name", "continent_name"),
            ("postal", "postal_code"), ("time_zone.name", "timezone"),
        ]
        for (path, name) in names {
            if let value = values[path], value != .null, value != .string("") { geo[name] = value }
        }
        if case .string(let country)? = values["country_code"], case .string(let region)? = values["region_code"],
            !country.isEmpty, !region.isEmpty
        {
            geo["region_iso_code"] = .string(country + "-" + region)
        }
        if let lat = number(values["latitude"]), let lon = number(values["longitude"]) {
            geo["location"] = .object(["lat": .number(lat), "lon": .number(lon)])
        }
        var autonomous: [String: JSONValue] = [:]
        if case .string(let text)? = values["asn.asn"], let number = Int(text.drop { $0 == "A" || $0 == "S" }) {
            autonomous["number"] = .integer(number)
        }
        if case .string(let name)? = values["asn.name"], !name.isEmpty {
            autonomous["organization"] = .object(["name": .string(name)])
        }
        var members: [String: JSONValue] = ["ip": .string(address)]
        if !geo.isEmpty { members["geo"] = .object(geo) }
        if !autonomous.isEmpty { members["as"] = .object(autonomous) }
        return .object(members)
    }

    /// The flags of the threat block that make an address an indicator of threat; a data
    /// centre, an iCloud relay or a bogon alone does not.
    static let threatFlags = [
        "is_threat", "is_known_attacker", "is_known_abuser", "is_tor", "is_proxy", "is_anonymous", "is_vpn",
    ]

    /// The element of `threat.enrichments` for an address whose threat block flags it (one of
    /// `threatFlags` true, or a blocklist), else nil: `indicator.ip`, `indicator.type`, `provider`, the
    /// threat block as the API sent it under `indicator.ipdata`, and `matched` naming the field
    /// of the event that held the address (`source.ip`).
    static func enrichment(address: String, field: String, threat: JSONValue?) -> JSONValue? {
        guard case .object(let block)? = threat else { return nil }
        let flagged = threatFlags.filter { block[$0] == .bool(true) }
        let listed: Bool
        if case .array(let lists)? = block["blocklists"] { listed = !lists.isEmpty } else { listed = false }
        guard !flagged.isEmpty || listed else { return nil }
        let type = IPAddress(address)?.description.contains(":") == true ? "ipv6-addr" : "ipv4-addr"
        var indicator: [String: JSONValue] = [
            "ip": .string(address), "type": .string(type), "provider": .string("ipdata"), "ipdata": .object(block),
        ]
        if !flagged.isEmpty {
            indicator["description"] = .string(
                flagged.map { $0.dropFirst(3).replacingOccurrences(of: "_", with: " ") }.joined(separator: ", "))
        }
        return .object([
            "indicator": .object(indicator),
            "matched": .object(["atomic": .string(address), "field": .string(field)]),
        ])
    }

    private static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number)?: return number
        case .integer(let integer)?: return Double(integer)
        default: return nil
        }
    }
}
