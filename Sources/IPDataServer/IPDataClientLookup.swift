import IPData

/// What a failed lookup does to a server's request.
public enum IPDataFailureMode: Sendable {
    /// It goes on, without data.
    case open
    /// It is answered 503 Service Unavailable.
    case closed
}

/// Looks up a server request's client within a latency budget, and judges it by a policy: what
/// `IPDataMiddleware` (Hummingbird) and `IPDataVaporMiddleware` (Vapor) do, without a framework,
/// for a middleware of your own.
///
/// 1. The client's address comes from `resolver`: the connection's peer, and the header your
///    trusted proxies set, never a header a client could forge.
/// 2. A public address is looked up through `client` (its cache or cache store, its coalescing
///    of concurrent lookups of one address, its retry policy). A private, loopback or reserved
///    address is not sent.
/// 3. The request waits at most `latencyBudget` for the answer. Past it, the request goes on at
///    once without data (`.overBudget`); the lookup goes on too and fills the client's cache for
///    the next request.
/// 4. `limits` bound the lookups: pending at once, new clients a second and per network (an
///    IPv6 /64 by default) a minute. A request they keep from a lookup goes on at once as
///    `.overBudget`. After the API says the quota is exhausted, no lookup is sent for
///    `limits.quotaPause` but one to try again, and requests get `.failed` with its error.
/// 5. `rejectionStatusCode(for:)` says what the request gets: nothing (it goes on), 503 for a
///    failed lookup when `failureMode` is `.closed`, or the policy's status when it turns the
///    client away.
///
/// ```swift
/// let lookup = IPDataClientLookup(client: client, resolver: try ClientAddressResolver(trustedProxies: ["10.0.0.0/8"]))
/// let info = await lookup.clientInfo(peer: "10.0.0.2") { name in name == "x-forwarded-for" ? ["203.0.113.7"] : [] }
/// if let status = lookup.rejectionStatusCode(for: info) { print("answer \(status)") }
/// ```
///
/// Copies share their lookups and limits. `cancelPendingLookups()` ends those still running,
/// for a server's shutdown.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct IPDataClientLookup: Sendable {
    /// What looks the clients up (with its cache, coalescing and retry policy).
    public let client: IPDataClient
    /// What finds each request's client behind your proxies.
    public let resolver: ClientAddressResolver
    /// The fields to ask for; nil for all of them.
    public let fields: [String]?
    /// The longest a request waits for its client's answer.
    public let latencyBudget: Duration
    /// What a failed lookup does to the request.
    public let failureMode: IPDataFailureMode
    /// Which clients are turned away; nil for none.
    public let policy: IPDataPolicy?
    /// How many lookups go through to the API.
    public var limits: IPDataLookupLimits { gate.limits }
    /// The lookups let through, shared by the copies.
    private let gate: LookupGate

    /// A lookup of server requests' clients; every parameter is described with its property.
    public init(
        client: IPDataClient, resolver: ClientAddressResolver, fields: [String]? = nil,
        latencyBudget: Duration = .milliseconds(250), failureMode: IPDataFailureMode = .open,
        policy: IPDataPolicy? = nil, limits: IPDataLookupLimits = .init()
    ) {
        self.client = client
        self.resolver = resolver
        self.fields = fields
        self.latencyBudget = latencyBudget
        self.failureMode = failureMode
        self.policy = policy
        self.gate = LookupGate(limits: limits)
    }

    /// What can be known of the client of a request from `peer` (the connection's peer address;
    /// nil when it has none) within the budget. `values` gives the request's values of a
    /// header, by its lowercased name, in the order they came.
    public func clientInfo(
        peer: String?, values: (_ lowercasedName: String) -> [String]
    ) async -> IPDataClientInfo {
        guard let address = resolver.clientAddress(peer: peer, values: values) else {
            return IPDataClientInfo(address: nil, response: nil, outcome: .noAddress)
        }
        guard let ip = IPAddress(address), ip.scope == .public else {
            return IPDataClientInfo(address: address, response: nil, outcome: .notPublic)
        }
        switch await gate.admit(ip) {
        case .go:
            break
        case .limited:
            return IPDataClientInfo(address: address, response: nil, outcome: .overBudget)
        case .quotaExhausted(let error):
            return IPDataClientInfo(address: address, response: nil, outcome: .failed(error))
        }
        let (client, fields) = (self.client, self.fields)
        let lookup = await gate.launch { try await client.lookup(address, fields: fields) }
        switch await result(of: lookup, within: latencyBudget) {
        case .success(let response)?:
            return IPDataClientInfo(address: address, response: response, outcome: .answered)
        case .failure(let error as IPDataError)?:
            return IPDataClientInfo(address: address, response: nil, outcome: .failed(error))
        case .failure(let error)?:
            return IPDataClientInfo(address: address, response: nil, outcome: .failed(.networkError(error)))
        case nil:
            return IPDataClientInfo(address: address, response: nil, outcome: .overBudget)
        }
    }

    /// The HTTP status code to answer a request with, by what `info` says of its client: 503 for
    /// a failed lookup when `failureMode` is `.closed`; the policy's `rejectionStatusCode` when
    /// it turns the client away; nil when the request goes on.
    public func rejectionStatusCode(for info: IPDataClientInfo) -> Int? {
        switch info.outcome {
        case .failed where failureMode == .closed:
            return 503
        case .answered:
            if let policy, let response = info.response, policy.turnsAway(response) {
                return policy.rejectionStatusCode
            }
        case let outcome:
            if let policy, policy.turnsAway(outcome) { return policy.rejectionStatusCode }
        }
        return nil
    }

    /// Cancels the lookups still running (those past their request's budget, filling the
    /// cache), and returns when they have ended: for a server's shutdown.
    public func cancelPendingLookups() async {
        await gate.cancelAll()
    }
}
