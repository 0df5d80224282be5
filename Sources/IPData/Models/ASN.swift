import Foundation

/// The autonomous system that announces an IP address (the `asn` object of a lookup).
public struct ASN: Codable, LenientModel, Hashable, Sendable {
    /// The AS number with its prefix, for example `AS15169` (`asn`).
    public let asn: String?
    /// The name of the organisation that operates the AS (`name`).
    public let name: String?
    /// The organisation's domain; the API sends `null` for many networks (`domain`).
    public let domain: String?
    /// The announced prefix that contains the address, for example `8.8.8.0/24` (`route`).
    public let route: String?
    /// The kind of network: `isp`, `hosting`, `business` or `education` (`type`).
    public let type: String?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(
        asn: String? = nil, name: String? = nil, domain: String? = nil, route: String? = nil, type: String? = nil
    ) {
        self.asn = asn
        self.name = name
        self.domain = domain
        self.route = route
        self.type = type
    }

    enum CodingKeys: String, CodingKey {
        case asn, name, domain, route, type
    }

    /// Decodes the API's `asn` object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        asn = fields.string(.asn)
        name = fields.string(.name)
        domain = fields.string(.domain)
        route = fields.string(.route)
        type = fields.string(.type)
    }
}
