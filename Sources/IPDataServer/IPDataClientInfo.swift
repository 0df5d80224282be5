import IPData

/// What a middleware (`IPDataClientLookup`) learnt of a request's client.
public struct IPDataClientInfo: Sendable {
    /// Why the request carries an answer, or does not.
    public enum Outcome: Sendable {
        /// The API's answer (or the client's cache) is in `response`.
        case answered
        /// The client's address could not be known (see `ClientAddressResolver`).
        case noAddress
        /// The address is not public (private, loopback, reserved…): the API has nothing on it,
        /// so nothing was sent.
        case notPublic
        /// No answer came within the middleware's latency budget; the lookup goes on and fills the
        /// client's cache for the next request.
        case overBudget
        /// The lookup failed.
        case failed(IPDataError)
    }

    /// The client's address, in canonical form; nil when it could not be known.
    public let address: String?
    /// The answer; nil unless `outcome` is `.answered`.
    public let response: IPResponse?
    /// Why there is a `response`, or why there is none.
    public let outcome: Outcome

    /// What a middleware learnt: for a test of your routes, or a middleware of your own.
    public init(address: String?, response: IPResponse?, outcome: Outcome) {
        self.address = address
        self.response = response
        self.outcome = outcome
    }
}

extension IPDataClientInfo.Outcome: CustomStringConvertible {
    /// A few words for a log line: `answered`, `no address`, `not public`, `over budget`, or
    /// `failed: ` and the error's description (which never holds the key).
    public var description: String {
        switch self {
        case .answered: "answered"
        case .noAddress: "no address"
        case .notPublic: "not public"
        case .overBudget: "over budget"
        case .failed(let error): "failed: \(error)"
        }
    }
}
