#if Hummingbird
import Foundation
import Hummingbird
import IPData
@_exported import IPDataServer

#if Observability
import IPDataObservability
#endif

/// A Hummingbird middleware that looks up each request's client with the ipdata.co API and puts
/// the answer in the request context (`IPDataRequestContext.ipData`) for the routes after it.
///
/// It does what `IPDataClientLookup` describes: the client's address from `resolver`, never a
/// header a client could forge; no lookup of a private address; at most `latencyBudget` of
/// waiting, after which the request goes on and the lookup fills the cache; `limits` on what
/// reaches the API; 503 for a failed lookup when `failureMode` is `.closed`; the `policy`'s
/// `rejectionStatus` (403) for a client it turns away.
///
/// ```swift
/// let router = Router(context: AppContext.self)
/// router.add(middleware: IPDataMiddleware(client: client, resolver: resolver, policy: policy))
/// router.get("/") { _, context in context.ipData?.response?.countryName ?? "unknown" }
/// ```
@available(macOS 14, iOS 17, tvOS 17, *)
public struct IPDataMiddleware<Context: IPDataRequestContext>: RouterMiddleware {
    /// What a failed lookup does to the request.
    public typealias FailureMode = IPDataFailureMode

    /// What looks the clients up, within the budget, and judges them.
    public let lookup: IPDataClientLookup
    /// What looks the clients up (with its cache, coalescing and retry policy).
    public var client: IPDataClient { lookup.client }
    /// What finds each request's client behind your proxies.
    public var resolver: ClientAddressResolver { lookup.resolver }
    /// The fields to ask for; nil for all of them.
    public var fields: [String]? { lookup.fields }
    /// The longest a request waits for its client's answer.
    public var latencyBudget: Duration { lookup.latencyBudget }
    /// What a failed lookup does to the request.
    public var failureMode: FailureMode { lookup.failureMode }
    /// How many lookups this middleware lets through to the API.
    public var limits: IPDataLookupLimits { lookup.limits }
    /// Which clients are turned away; nil for none.
    public var policy: IPDataPolicy? { lookup.policy }
    /// The connection's peer address of a request.
    private let peer: @Sendable (Request, Context) -> String?

    /// A middleware that reads the connection's peer with `peer` (for a context that is not a
    /// `RemoteAddressRequestContext`).
    public init(
        client: IPDataClient, resolver: ClientAddressResolver, fields: [String]? = nil,
        latencyBudget: Duration = .milliseconds(250), failureMode: FailureMode = .open, policy: IPDataPolicy? = nil,
        limits: IPDataLookupLimits = .init(), peer: @escaping @Sendable (Request, Context) -> String?
    ) {
        self.lookup = IPDataClientLookup(
            client: client, resolver: resolver, fields: fields, latencyBudget: latencyBudget,
            failureMode: failureMode, policy: policy, limits: limits)
        self.peer = peer
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
        if let status = lookup.rejectionStatusCode(for: info) {
            return Response(status: HTTPResponse.Status(code: status))
        }
        return try await next(request, context)
    }

    /// What can be known of the request's client within the budget.
    func clientInfo(for request: Request, context: Context) async -> IPDataClientInfo {
        await lookup.clientInfo(peer: peer(request, context)) { name in
            request.headers.filter { $0.name.canonicalName == name }.map(\.value)
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
