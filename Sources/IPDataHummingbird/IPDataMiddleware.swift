#if Hummingbird
import Foundation
import Hummingbird
import IPData
#if Observability
import IPDataObservability
#endif

/// A Hummingbird middleware that looks up each request's client with the ipdata.co API and puts
/// the answer in the request context (`IPDataRequestContext.ipData`) for the routes after it.
///
/// 1. The client's address comes from `ClientAddressResolver`: the connection's peer, and the
///    header your trusted proxies set, never a header a client could forge.
/// 2. A public address is looked up through `client` (its `LookupCache` or cache store, its
///    coalescing of concurrent lookups of one address, its retry policy). A private, loopback or
///    reserved address is not sent.
/// 3. The request waits at most `latencyBudget` for the answer. Past it, the request goes on at
///    once without data (`.overBudget`); the lookup goes on too and fills the client's cache for
///    the next request.
/// 4. `limits` bound the lookups: pending at once, new clients a second and per network (an
///    IPv6 /64 by default) a minute. A request they keep from a lookup goes on at once as
///    `.overBudget`. After the API says the quota is exhausted, no lookup is sent for
///    `limits.quotaPause` but one to try again, and requests get `.failed` with its error: your
///    `failureMode` decides what they get.
/// 5. A failed lookup lets the request go on without data (`.open`, the default), or answers
///    503 Service Unavailable (`.closed`).
/// 6. With a `policy`, a request whose client it turns away gets its `rejectionStatus` (403); the
///    policy also says whether a client that cannot be known, or has no answer in time, is.
///
/// ```swift
/// let router = Router(context: AppContext.self)
/// router.add(middleware: IPDataMiddleware(client: client, resolver: resolver, policy: policy))
/// router.get("/") { _, context in context.ipData?.response?.countryName ?? "unknown" }
/// ```
@available(macOS 14, iOS 17, tvOS 17, *)
public struct IPDataMiddleware<Context: IPDataRequestContext>: RouterMiddleware {
    /// What a failed lookup does to the request.
    public enum FailureMode: Sendable {
        /// It goes on, without data.
        case open
        /// It is answered 503 Service Unavailable.
        case closed
    }

    /// What looks the clients up (with its cache, coalescing and retry policy).
    public let client: IPDataClient
    /// What finds each request's client behind your proxies.
    public let resolver: ClientAddressResolver
    /// The fields to ask for; nil for all of them.
    public let fields: [String]?
    /// The longest a request waits for its client's answer.
    public let latencyBudget: Duration
    /// What a failed lookup does to the request.
    public let failureMode: FailureMode
    /// How many lookups this middleware lets through to the API.
    public var limits: IPDataLookupLimits { gate.limits }
    /// Which clients are turned away; nil for none.
    public let policy: IPDataPolicy?
    /// The connection's peer address of a request.
    private let peer: @Sendable (Request, Context) -> String?
    /// The lookups let through, shared by the copies of this middleware.
    private let gate: LookupGate

    /// A middleware that reads the connection's peer with `peer` (for a context that is not a
    /// `RemoteAddressRequestContext`).
    public init(
        client: IPDataClient, resolver: ClientAddressResolver, fields: [String]? = nil,
        latencyBudget: Duration = .milliseconds(250), failureMode: FailureMode = .open, policy: IPDataPolicy? = nil,
        limits: IPDataLookupLimits = .init(), peer: @escaping @Sendable (Request, Context) -> String?
    ) {
        self.client = client
        self.resolver = resolver
        self.fields = fields
        self.latencyBudget = latencyBudget
        self.failureMode = failureMode
        self.policy = policy
        self.peer = peer
        self.gate = LookupGate(limits: limits)
    }

    /// Looks the request's client up, within the budget, and passes the request on with the
    /// answer in its context; or answers it at once, when the policy or a closed failure says so.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        #if Observability
        // The client's log lines carry the request's metadata (its request id).
        let info = await IPDataLoggingObserver.$requestLogger.withValue(context.logger) {
            await clientInfo(for: request, context: context)
        }
        #else
        let info = await clientInfo(for: request, context: context)
        #endif
        context.ipData = info
        switch info.outcome {
        case .failed where failureMode == .closed:
            return Response(status: .serviceUnavailable)
        case .answered:
            if let policy, let response = info.response, policy.turnsAway(response) {
                return Response(status: policy.rejectionStatus)
            }
        case let outcome:
            if let policy, policy.turnsAway(outcome) { return Response(status: policy.rejectionStatus) }
        }
        return try await next(request, context)
    }

    /// What can be known of the request's client within the budget.
    func clientInfo(for request: Request, context: Context) async -> IPDataClientInfo {
        let address = resolver.clientAddress(peer: peer(request, context)) { name in
            request.headers.filter { $0.name.canonicalName == name }.map(\.value)
        }
        guard let address else { return IPDataClientInfo(address: nil, response: nil, outcome: .noAddress) }
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
        // Not a child task: past the budget the lookup goes on, and its answer fills the cache.
        let (client, fields, gate) = (self.client, self.fields, self.gate)
        let lookup = Task {
            do {
                let response = try await client.lookup(address, fields: fields)
                await gate.ended(nil)
                return response
            } catch {
                await gate.ended(error as? IPDataError ?? .networkError(error))
                throw error
            }
        }
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
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension IPDataMiddleware where Context: RemoteAddressRequestContext {
    /// A middleware for a context that knows the connection's peer (`remoteAddress`).
    public init(
        client: IPDataClient, resolver: ClientAddressResolver, fields: [String]? = nil,
        latencyBudget: Duration = .milliseconds(250), failureMode: FailureMode = .open, policy: IPDataPolicy? = nil,
        limits: IPDataLookupLimits = .init()
    ) {
        self.init(
            client: client, resolver: resolver, fields: fields, latencyBudget: latencyBudget,
            failureMode: failureMode, policy: policy, limits: limits,
            peer: { _, context in context.remoteAddress?.ipAddress })
    }
}
#endif
