import Foundation
import IPData
import XCTest

/// The models' public initialisers, as an app uses them for previews and tests (public API only):
/// each parameter sets its own property, whose encoding is the API's key, and the value decodes
/// back equal; a parameter left out is nil (the two flags of `IPResponse` false).
final class ModelInitialiserTests: XCTestCase {
    /// `value` encodes to exactly `expected` (the API's keys and the values given) and decodes back equal.
    private func assertEncodes<Model: Codable & Equatable>(
        _ value: Model, to expected: [String: Any], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let encoded = try JSONEncoder().encode(value)
        let object = try JSONSerialization.jsonObject(with: encoded)
        XCTAssertEqual(try Self.text(object), try Self.text(expected), file: file, line: line)
        XCTAssertEqual(try JSONDecoder().decode(Model.self, from: encoded), value, file: file, line: line)
    }

    /// A JSON value as sorted text, so that two values are compared, not two ways of writing one.
    private static func text(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    private static let asn = ASN(
        asn: "AS15169", name: "Google LLC", domain: "google.com", route: "8.8.8.0/24", type: "hosting")
    private static var asnJSON: [String: Any] {
        [
            "asn": "AS15169", "name": "Google LLC", "domain": "google.com", "route": "8.8.8.0/24", "type": "hosting",
        ]
    }
    private static let company = Company(
        name: "Google LLC", domain: "google.com", network: "8.8.8.0/24", type: "business")
    private static var companyJSON: [String: Any] {
        [
            "name": "Google LLC", "domain": "google.com", "network": "8.8.8.0/24", "type": "business",
        ]
    }
    private static let carrier = Carrier(name: "T-Mobile", mcc: "310", mnc: "160")
    private static var carrierJSON: [String: Any] {
        ["name": "T-Mobile", "mcc": "310", "mnc": "160"]
    }
    private static let language = Language(name: "German", native: "Deutsch", code: "de")
    private static var languageJSON: [String: Any] {
        ["name": "German", "native": "Deutsch", "code": "de"]
    }
    private static let currency = Currency(name: "Euro", code: "EUR", symbol: "€", native: "€ ", plural: "euros")
    private static var currencyJSON: [String: Any] {
        [
            "name": "Euro", "code": "EUR", "symbol": "€", "native": "€ ", "plural": "euros",
        ]
    }
    private static let timeZone = TimeZoneInfo(
        name: "Europe/Berlin", abbr: "CEST", offset: "+0200", isDST: true, currentTime: "2026-06-15T10:30:00.5+02:00")
    private static var timeZoneJSON: [String: Any] {
        [
            "name": "Europe/Berlin", "abbr": "CEST", "offset": "+0200", "is_dst": true,
            "current_time": "2026-06-15T10:30:00.5+02:00",
        ]
    }
    private static let blocklist = Blocklist(
        name: "Firehol Level 1", site: "https://iplists.firehol.org", type: "general", firstSeen: "2026-09-02",
        lastSeen: "2026-11-19", daysSeen: 61)
    private static var blocklistJSON: [String: Any] {
        [
            "name": "Firehol Level 1", "site": "https://iplists.firehol.org", "type": "general",
            "first_seen": "2026-09-02", "last_seen": "2026-11-19", "days_seen": 61,
        ]
    }
    private static let scores = ThreatScores(vpnScore: 10, proxyScore: 20, threatScore: 30, trustScore: 40)
    private static var scoresJSON: [String: Any] {
        [
            "vpn_score": 10, "proxy_score": 20, "threat_score": 30, "trust_score": 40,
        ]
    }
    // Each flag differs from its neighbours, so that a parameter that set another property shows.
    private static let threat = Threat(
        isTor: true, isVPN: false, isICloudRelay: true, isProxy: false, isDatacenter: true, isAnonymous: false,
        isKnownAttacker: true, isKnownAbuser: false, isThreat: true, isBogon: false, blocklists: [blocklist],
        scores: scores)
    private static var threatJSON: [String: Any] {
        [
            "is_tor": true, "is_vpn": false, "is_icloud_relay": true, "is_proxy": false, "is_datacenter": true,
            "is_anonymous": false, "is_known_attacker": true, "is_known_abuser": false, "is_threat": true,
            "is_bogon": false, "blocklists": [blocklistJSON], "scores": scoresJSON,
        ]
    }

    func testASN() throws {
        try assertEncodes(Self.asn, to: Self.asnJSON)
    }

    func testCompany() throws {
        try assertEncodes(Self.company, to: Self.companyJSON)
    }

    func testCarrier() throws {
        try assertEncodes(Self.carrier, to: Self.carrierJSON)
    }

    func testLanguage() throws {
        try assertEncodes(Self.language, to: Self.languageJSON)
    }

    func testCurrency() throws {
        try assertEncodes(Self.currency, to: Self.currencyJSON)
    }

    func testTimeZoneInfo() throws {
        try assertEncodes(Self.timeZone, to: Self.timeZoneJSON)
    }

    func testBlocklist() throws {
        try assertEncodes(Self.blocklist, to: Self.blocklistJSON)
    }

    func testThreatScores() throws {
        try assertEncodes(Self.scores, to: Self.scoresJSON)
    }

    func testThreat() throws {
        try assertEncodes(Self.threat, to: Self.threatJSON)
    }

    func testASNDetail() throws {
        let detail = ASNDetail(
            asn: "AS15169", name: "Google LLC", domain: "google.com", usage: "hosting", numIPs: "16777216",
            registry: "arin", country: "US", date: "2000-03-30", status: "allocated", ipv4Prefixes: ["8.8.8.0/24"],
            ipv6Prefixes: ["2001:4860::/32"], upstream: [11537], downstream: [36040], peers: [13335, 20940])
        try assertEncodes(
            detail,
            to: [
                "asn": "AS15169", "name": "Google LLC", "domain": "google.com", "usage": "hosting",
                "num_ips": "16777216", "registry": "arin", "country": "US", "date": "2000-03-30",
                "status": "allocated", "ipv4_prefixes": ["8.8.8.0/24"], "ipv6_prefixes": ["2001:4860::/32"],
                "upstream": [11537], "downstream": [36040], "peers": [13335, 20940],
            ])
    }

    func testIPResponse() throws {
        let response = IPResponse(
            ip: "8.8.8.8", isEU: false, isSatellite: true, isAnycast: true, city: "Mountain View",
            region: "California", regionCode: "CA", regionType: "state", countryName: "United States",
            countryCode: "US", continentName: "North America", continentCode: "NA", latitude: 37.386,
            longitude: -122.0838, postal: "94035", callingCode: "1", flag: "https://ipdata.co/flags/us.png",
            emojiFlag: "🇺🇸", emojiUnicode: "U+1F1FA U+1F1F8", asn: Self.asn, company: Self.company,
            carrier: Self.carrier, languages: [Self.language], currency: Self.currency, timeZone: Self.timeZone,
            threat: Self.threat, count: 1506, message: "a message")
        try assertEncodes(
            response,
            to: [
                "ip": "8.8.8.8", "is_eu": false, "is_satellite": true, "is_anycast": true, "city": "Mountain View",
                "region": "California", "region_code": "CA", "region_type": "state",
                "country_name": "United States", "country_code": "US", "continent_name": "North America",
                "continent_code": "NA", "latitude": 37.386, "longitude": -122.0838, "postal": "94035",
                "calling_code": "1", "flag": "https://ipdata.co/flags/us.png", "emoji_flag": "🇺🇸",
                "emoji_unicode": "U+1F1FA U+1F1F8", "asn": Self.asnJSON, "company": Self.companyJSON,
                "carrier": Self.carrierJSON, "languages": [Self.languageJSON], "currency": Self.currencyJSON,
                "time_zone": Self.timeZoneJSON, "threat": Self.threatJSON, "count": 1506, "message": "a message",
            ])
    }

    /// With no arguments, a model is what the API's empty object `{}` decodes to, and encodes to it.
    func testEveryParameterLeftOutIsNil() throws {
        try assertEncodes(IPResponse(), to: ["is_satellite": false, "is_anycast": false])
        let empty = Data("{}".utf8)
        XCTAssertEqual(IPResponse(), try JSONDecoder().decode(IPResponse.self, from: empty))
        XCTAssertNil(IPResponse().ip)
        XCTAssertFalse(IPResponse().isSatellite || IPResponse().isAnycast)
        try assertEncodes(ASN(), to: [:])
        try assertEncodes(ASNDetail(), to: [:])
        try assertEncodes(Company(), to: [:])
        try assertEncodes(Carrier(), to: [:])
        try assertEncodes(Language(), to: [:])
        try assertEncodes(Currency(), to: [:])
        try assertEncodes(TimeZoneInfo(), to: [:])
        try assertEncodes(Threat(), to: [:])
        try assertEncodes(Blocklist(), to: [:])
        try assertEncodes(ThreatScores(), to: [:])
        XCTAssertEqual(Threat(), try JSONDecoder().decode(Threat.self, from: empty))
    }

    /// A value built with the initialiser is the one the API's answer decodes to.
    func testABuiltValueEqualsTheDecodedAnswer() throws {
        let built = IPResponse(
            ip: "1.1.1.1",
            asn: ASN(
                asn: "AS13335", name: "Cloudflare, Inc.", domain: "cloudflare.com", route: "1.1.1.0/24",
                type: "business"))
        XCTAssertEqual(
            try Fixture.decode(IPResponse.self, "fields/1.1.1.1-fields=ip,asn.python-readme-2022.json"), built)
    }
}
