import Foundation

/// Everything the dedicated ASN endpoint (`GET /AS15169`) returns about an autonomous system.
public struct ASNDetail: Codable, LenientModel, Hashable, Sendable {
    /// The AS number with its prefix, for example `AS15169` (`asn`).
    public let asn: String?
    /// The name of the organisation that operates the AS (`name`).
    public let name: String?
    /// The organisation's domain (`domain`).
    public let domain: String?
    /// How the AS is used, for example `hosting` or `isp` (`usage`).
    public let usage: String?
    /// How many addresses the AS announces, as decimal text (`num_ips`).
    ///
    /// The API's JSON type for this value is not documented; numbers and strings both decode.
    public let numIPs: String?
    /// The regional internet registry, for example `arin` (`registry`).
    public let registry: String?
    /// The ISO 3166-1 alpha-2 country code of the registrant (`country`).
    public let country: String?
    /// The allocation date, `YYYY-MM-DD` (`date`).
    public let date: String?
    /// The allocation status, for example `allocated` (`status`).
    public let status: String?
    /// The IPv4 prefixes the AS announces (`ipv4_prefixes`).
    public let ipv4Prefixes: [String]?
    /// The IPv6 prefixes the AS announces (`ipv6_prefixes`).
    public let ipv6Prefixes: [String]?
    /// The AS numbers of its upstream providers (`upstream`); numbers, `"15169"` and `"AS15169"` decode.
    public let upstream: [Int]?
    /// The AS numbers of its downstream customers (`downstream`); numbers and strings decode.
    public let downstream: [Int]?
    /// The AS numbers of its peers (`peers`); numbers and strings decode.
    public let peers: [Int]?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(
        asn: String? = nil, name: String? = nil, domain: String? = nil, usage: String? = nil, numIPs: String? = nil,
        registry: String? = nil, country: String? = nil, date: String? = nil, status: String? = nil,
        ipv4Prefixes: [String]? = nil, ipv6Prefixes: [String]? = nil, upstream: [Int]? = nil, downstream: [Int]? = nil,
        peers: [Int]? = nil
    ) {
        self.asn = asn
        self.name = name
        self.domain = domain
        self.usage = usage
        self.numIPs = numIPs
        self.registry = registry
        self.country = country
        self.date = date
        self.status = status
        self.ipv4Prefixes = ipv4Prefixes
        self.ipv6Prefixes = ipv6Prefixes
        self.upstream = upstream
        self.downstream = downstream
        self.peers = peers
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case asn, name, domain, usage, registry, country, date, status, upstream, downstream, peers
        case numIPs = "num_ips"
        case ipv4Prefixes = "ipv4_prefixes"
        case ipv6Prefixes = "ipv6_prefixes"
    }

    /// The API's names of the top-level fields of an ASN's detail (`asn`, `name`, `domain`…):
    /// every key this type reads.
    public static let fieldNames: [String] = CodingKeys.allCases.map(\.rawValue)

    /// Decodes the API's ASN object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        asn = fields.string(.asn)
        name = fields.string(.name)
        domain = fields.string(.domain)
        usage = fields.string(.usage)
        numIPs = fields.string(.numIPs)
        registry = fields.string(.registry)
        country = fields.string(.country)
        date = fields.string(.date)
        status = fields.string(.status)
        ipv4Prefixes = fields.strings(.ipv4Prefixes)
        ipv6Prefixes = fields.strings(.ipv6Prefixes)
        upstream = fields.integers(.upstream)
        downstream = fields.integers(.downstream)
        peers = fields.integers(.peers)
    }
}
