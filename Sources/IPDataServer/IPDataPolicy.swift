import IPData

/// Which requests a middleware (`IPDataMiddleware` of Hummingbird, `IPDataVaporMiddleware` of
/// Vapor) turns away, by what the API says of their client: its country, threat flags and threat
/// score, or a rule of your own. A request whose client has no answer goes on, unless
/// `blocksUnknownClients` or `blocksUnansweredClients` says otherwise (a private address is never
/// judged; a failed lookup is `IPDataFailureMode`'s).
///
/// ```swift
/// let policy = IPDataPolicy(blockedCountries: ["KP"], blocksTor: true, maximumThreatScore: 80)
/// ```
public struct IPDataPolicy: Sendable {
    /// ISO 3166-1 alpha-2 codes (`"KP"`), compared without regard to case.
    public var blockedCountries: Set<String>
    /// Turn away Tor exit nodes (`threat.is_tor`).
    public var blocksTor: Bool
    /// Turn away anonymous proxies (`threat.is_proxy`) and VPNs (`threat.is_vpn`).
    public var blocksProxies: Bool
    /// Turn away known attackers and abusers (`threat.is_known_attacker`, `threat.is_known_abuser`).
    public var blocksKnownAttackers: Bool
    /// Turn away a client whose `threat.scores.threat_score` (0 to 100) is above this.
    public var maximumThreatScore: Int?
    /// Turn away a request whose client cannot be known (`.noAddress`): your proxies' chain ends,
    /// where the client is, in `unknown`, an obfuscated identifier or an entry that is not an
    /// address, or the connection has no peer address.
    public var blocksUnknownClients: Bool
    /// Turn away a request whose client has no answer within the latency budget (`.overBudget`),
    /// rather than let it go on unjudged.
    public var blocksUnansweredClients: Bool
    /// A rule of your own: true turns the request away.
    public var rejects: (@Sendable (IPResponse) -> Bool)?
    /// The HTTP status code of a turned-away request: 403 (Forbidden) by default.
    public var rejectionStatusCode: Int

    /// A policy that turns away what its arguments name; by default nothing.
    public init(
        blockedCountries: Set<String> = [], blocksTor: Bool = false, blocksProxies: Bool = false,
        blocksKnownAttackers: Bool = false, maximumThreatScore: Int? = nil, blocksUnknownClients: Bool = false,
        blocksUnansweredClients: Bool = false, rejects: (@Sendable (IPResponse) -> Bool)? = nil,
        rejectionStatusCode: Int = 403
    ) {
        self.blockedCountries = Set(blockedCountries.map { $0.uppercased() })
        self.blocksTor = blocksTor
        self.blocksProxies = blocksProxies
        self.blocksKnownAttackers = blocksKnownAttackers
        self.maximumThreatScore = maximumThreatScore
        self.blocksUnknownClients = blocksUnknownClients
        self.blocksUnansweredClients = blocksUnansweredClients
        self.rejects = rejects
        self.rejectionStatusCode = rejectionStatusCode
    }

    /// Whether a request whose client has no answer, for `outcome`, is turned away.
    public func turnsAway(_ outcome: IPDataClientInfo.Outcome) -> Bool {
        switch outcome {
        case .noAddress: blocksUnknownClients
        case .overBudget: blocksUnansweredClients
        case .answered, .notPublic, .failed: false
        }
    }

    /// Whether a client the API describes as `response` is turned away.
    public func turnsAway(_ response: IPResponse) -> Bool {
        if let country = response.countryCode?.uppercased(), blockedCountries.contains(country) { return true }
        let threat = response.threat
        if blocksTor, threat?.isTor == true { return true }
        if blocksProxies, threat?.isProxy == true || threat?.isVPN == true { return true }
        if blocksKnownAttackers, threat?.isKnownAttacker == true || threat?.isKnownAbuser == true { return true }
        if let maximumThreatScore, let score = threat?.scores?.threatScore, score > maximumThreatScore { return true }
        return rejects?(response) ?? false
    }
}
