#if Hummingbird
import Foundation
import Hummingbird
import IPData

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
///    the next request. At most `maximumPendingLookups` lookups go on at once: while that many
///    wait for the API (an outage, a flood of new clients), a request with a new client goes on
///    at once as `.overBudget`, and no lookup starts for it.
/// 4. A failed lookup lets the request go on without data (`.open`, the default), or answers
///    503 Service Unavailable (`.closed`).
/// 5. With a `policy`, a request whose client it turns away gets its `rejectionStatus` (403).
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
    /// The most lookups this middleware has waiting for the API at once.
    public var maximumPendingLookups: Int { pending.limit }
    /// Which clients are turned away; nil for none.
    public let policy: IPDataPolicy?
    /// The connection's peer address of a request.
    private let peer: @Sendable (Request, Context) -> String?
    /// The lookups started and not ended, shared by the copies of this middleware.
    private let pending: PendingLookups

    /// A middleware that reads the connection's peer with `peer` (for a context that is not a
    /// `RemoteAddressRequestContext`).
    public init(
        client: IPDataClient, resolver: ClientAddressResolver, fields: [String]? = nil,
        latencyBudget: Duration = .milliseconds(250), failureMode: FailureMode = .open, policy: IPDataPolicy? = nil,
        maximumPendingLookups: Int = 256, peer: @escaping @Sendable (Request, Context) -> String?
    ) {
        self.client = client
        self.resolver = resolver
        self.fields = fields
        self.latencyBudget = latencyBudget
        self.failureMode = failureMode
        self.policy = policy
        self.peer = peer
        self.pending = PendingLookups(limit: maximumPendingLookups)
    }

    /// Looks the request's client up, within the budget, and passes the request on with the
    /// answer in its context; or answers it at once, when the policy or a closed failure says so.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let info = await clientInfo(for: request, context: context)
        context.ipData = info
        switch info.outcome {
        case .failed where failureMode == .closed:
            return Response(status: .serviceUnavailable)
        case .answered:
            if let policy, let response = info.response, policy.turnsAway(response) {
                return Response(status: policy.rejectionStatus)
            }
        default:
            break
        }
        return try await next(request, context)
    }

    /// What can be known of the request's client within the budget.
    func clientInfo(for request: Request, context: Context) async -> IPDataClientInfo {
        let address = resolver.clientAddress(peer: peer(request, context)) { name in
            request.headers.filter { $0.name.canonicalName == name }.map(\.value)
        }
        guard let address else { return IPDataClientInfo(address: nil, response: nil, outcome: .noAddress) }
        guard IPAddress(address)?.scope == .public else {
            return IPDataClientInfo(address: address, response: nil, outcome: .notPublic)
        }
        guard await pending.start() else {
            return IPDataClientInfo(address: address, response: nil, outcome: .overBudget)
        }
        // Not a child task: past the budget the lookup goes on, and its answer fills the cache.
        let (client, fields, pending) = (self.client, self.fields, self.pending)
        let lookup = Task {
            do {
                let response = try await client.lookup(address, fields: fields)
                await pending.end()
                return response
            } catch {
                await pending.end()
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
        maximumPendingLookups: Int = 256
    ) {
        self.init(
            client: client, resolver: resolver, fields: fields, latencyBudget: latencyBudget,
            failureMode: failureMode, policy: policy, maximumPendingLookups: maximumPendingLookups,
            peer: { _, context in context.remoteAddress?.ipAddress })
    }
}
#endif
