import Foundation

/// Reputation scores from 0 to 100 (the `threat.scores` object; business plans only).
public struct ThreatScores: Codable, LenientModel, Hashable, Sendable {
    /// How likely the address is a VPN exit, 0–100 (`vpn_score`).
    public let vpnScore: Int?
    /// How likely the address is a proxy, 0–100 (`proxy_score`).
    public let proxyScore: Int?
    /// How likely the address is a threat, 0–100 (`threat_score`).
    public let threatScore: Int?
    /// How trustworthy the address is, 0–100; higher is better (`trust_score`).
    public let trustScore: Int?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(vpnScore: Int? = nil, proxyScore: Int? = nil, threatScore: Int? = nil, trustScore: Int? = nil) {
        self.vpnScore = vpnScore
        self.proxyScore = proxyScore
        self.threatScore = threatScore
        self.trustScore = trustScore
    }

    enum CodingKeys: String, CodingKey {
        case vpnScore = "vpn_score"
        case proxyScore = "proxy_score"
        case threatScore = "threat_score"
        case trustScore = "trust_score"
    }

    /// Decodes the API's `scores` object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        vpnScore = fields.integer(.vpnScore)
        proxyScore = fields.integer(.proxyScore)
        threatScore = fields.integer(.threatScore)
        trustScore = fields.integer(.trustScore)
    }
}
