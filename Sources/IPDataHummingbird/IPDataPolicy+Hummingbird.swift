#if Hummingbird
import Hummingbird
import IPData
import IPDataServer

extension IPDataPolicy {
    /// The status of a turned-away request, as Hummingbird spells it: `.forbidden` by default.
    public var rejectionStatus: HTTPResponse.Status {
        get { HTTPResponse.Status(code: rejectionStatusCode) }
        set { rejectionStatusCode = newValue.code }
    }

    /// A policy that turns away what its arguments name, and answers `rejectionStatus`; the
    /// other parameters are those of `init(blockedCountries:…rejectionStatusCode:)`.
    public init(
        blockedCountries: Set<String> = [], blocksTor: Bool = false, blocksProxies: Bool = false,
        blocksKnownAttackers: Bool = false, maximumThreatScore: Int? = nil, blocksUnknownClients: Bool = false,
        blocksUnansweredClients: Bool = false, rejects: (@Sendable (IPResponse) -> Bool)? = nil,
        rejectionStatus: HTTPResponse.Status
    ) {
        self.init(
            blockedCountries: blockedCountries, blocksTor: blocksTor, blocksProxies: blocksProxies,
            blocksKnownAttackers: blocksKnownAttackers, maximumThreatScore: maximumThreatScore,
            blocksUnknownClients: blocksUnknownClients, blocksUnansweredClients: blocksUnansweredClients,
            rejects: rejects, rejectionStatusCode: rejectionStatus.code)
    }
}
#endif
