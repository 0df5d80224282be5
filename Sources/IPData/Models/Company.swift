import Foundation

/// The organisation that owns an IP address (the `company` object of a lookup).
public struct Company: Codable, LenientModel, Hashable, Sendable {
    /// The organisation's name (`name`).
    public let name: String?
    /// The organisation's domain (`domain`).
    public let domain: String?
    /// The network block the organisation holds, for example `8.8.8.0/24` (`network`).
    public let network: String?
    /// The kind of organisation: `isp`, `hosting`, `business` or `education` (`type`).
    public let type: String?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(name: String? = nil, domain: String? = nil, network: String? = nil, type: String? = nil) {
        self.name = name
        self.domain = domain
        self.network = network
        self.type = type
    }

    enum CodingKeys: String, CodingKey {
        case name, domain, network, type
    }

    /// Decodes the API's `company` object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        name = fields.string(.name)
        domain = fields.string(.domain)
        network = fields.string(.network)
        type = fields.string(.type)
    }
}
