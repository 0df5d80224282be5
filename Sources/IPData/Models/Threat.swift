import Foundation

/// Threat intelligence for an IP address (the `threat` object of a lookup).
///
/// The API refreshes this data about every 15 minutes. `isVPN` and `scores` are sent only on
/// business plans; every flag is nil when the API leaves it out.
public struct Threat: Codable, LenientModel, Hashable, Sendable {
    /// The address is a Tor exit node (`is_tor`).
    public let isTor: Bool?
    /// The address belongs to a VPN provider (`is_vpn`; business plans).
    public let isVPN: Bool?
    /// The address is an iCloud Private Relay egress (`is_icloud_relay`).
    public let isICloudRelay: Bool?
    /// The address is a known proxy (`is_proxy`).
    public let isProxy: Bool?
    /// The address belongs to a hosting or cloud provider (`is_datacenter`).
    public let isDatacenter: Bool?
    /// The address is Tor, a proxy, a VPN or an iCloud relay (`is_anonymous`).
    public let isAnonymous: Bool?
    /// The address is a known source of attacks (`is_known_attacker`).
    public let isKnownAttacker: Bool?
    /// The address is a known source of abuse such as spam (`is_known_abuser`).
    public let isKnownAbuser: Bool?
    /// The address is an attacker or an abuser (`is_threat`).
    public let isThreat: Bool?
    /// The address is a bogon: unallocated or reserved space (`is_bogon`).
    public let isBogon: Bool?
    /// The blocklists that list the address (`blocklists`).
    public let blocklists: [Blocklist]?
    /// Reputation scores, 0–100 (`scores`; business plans).
    public let scores: ThreatScores?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(
        isTor: Bool? = nil, isVPN: Bool? = nil, isICloudRelay: Bool? = nil, isProxy: Bool? = nil,
        isDatacenter: Bool? = nil, isAnonymous: Bool? = nil, isKnownAttacker: Bool? = nil, isKnownAbuser: Bool? = nil,
        isThreat: Bool? = nil, isBogon: Bool? = nil, blocklists: [Blocklist]? = nil, scores: ThreatScores? = nil
    ) {
        self.isTor = isTor
        self.isVPN = isVPN
        self.isICloudRelay = isICloudRelay
        self.isProxy = isProxy
        self.isDatacenter = isDatacenter
        self.isAnonymous = isAnonymous
        self.isKnownAttacker = isKnownAttacker
        self.isKnownAbuser = isKnownAbuser
        self.isThreat = isThreat
        self.isBogon = isBogon
        self.blocklists = blocklists
        self.scores = scores
    }

    enum CodingKeys: String, CodingKey {
        case isTor = "is_tor"
        case isVPN = "is_vpn"
        case isICloudRelay = "is_icloud_relay"
        case isProxy = "is_proxy"
        case isDatacenter = "is_datacenter"
        case isAnonymous = "is_anonymous"
        case isKnownAttacker = "is_known_attacker"
        case isKnownAbuser = "is_known_abuser"
        case isThreat = "is_threat"
        case isBogon = "is_bogon"
        case blocklists, scores
    }

    /// Decodes the API's `threat` object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        isTor = fields.bool(.isTor)
        isVPN = fields.bool(.isVPN)
        isICloudRelay = fields.bool(.isICloudRelay)
        isProxy = fields.bool(.isProxy)
        isDatacenter = fields.bool(.isDatacenter)
        isAnonymous = fields.bool(.isAnonymous)
        isKnownAttacker = fields.bool(.isKnownAttacker)
        isKnownAbuser = fields.bool(.isKnownAbuser)
        isThreat = fields.bool(.isThreat)
        isBogon = fields.bool(.isBogon)
        blocklists = fields.objects(Blocklist.self, .blocklists)
        scores = fields.object(ThreatScores.self, .scores)
    }
}
