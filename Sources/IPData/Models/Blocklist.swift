import Foundation

/// One blocklist that lists an IP address (an element of `threat.blocklists`).
///
/// Some feeds, such as ipdata's own VPN feed, send no dates: `firstSeen`, `lastSeen` and
/// `daysSeen` are then nil. The dates are kept as the API sends them.
public struct Blocklist: Codable, LenientModel, Hashable, Sendable {
    /// The blocklist's name (`name`).
    public let name: String?
    /// The blocklist's website (`site`).
    public let site: String?
    /// The kind of list, for example `vpn`, `cloud` or `general` (`type`).
    public let type: String?
    /// The first day the address was seen on the list, `YYYY-MM-DD` in UTC (`first_seen`).
    public let firstSeen: String?
    /// The last day the address was seen on the list, `YYYY-MM-DD` in UTC (`last_seen`).
    public let lastSeen: String?
    /// On how many days the address was seen on the list (`days_seen`).
    public let daysSeen: Int?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(
        name: String? = nil, site: String? = nil, type: String? = nil, firstSeen: String? = nil,
        lastSeen: String? = nil, daysSeen: Int? = nil
    ) {
        self.name = name
        self.site = site
        self.type = type
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.daysSeen = daysSeen
    }

    enum CodingKeys: String, CodingKey {
        case name, site, type
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
        case daysSeen = "days_seen"
    }

    /// Decodes one blocklist entry; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        name = fields.string(.name)
        site = fields.string(.site)
        type = fields.string(.type)
        firstSeen = fields.string(.firstSeen)
        lastSeen = fields.string(.lastSeen)
        daysSeen = fields.integer(.daysSeen)
    }
}
