#if Vapor
import IPData
import IPDataServer
import Vapor

/// A Vapor middleware that looks up each request's client with the ipdata.co API and keeps what
/// it learnt in the request (`req.ipdata.clientInfo`) for the routes after it.
///
/// It does what `IPDataClientLookup` describes: the client's address from `resolver`, starting
/// from the connection's own peer (not Vapor's `peerAddress`, which believes any
/// `X-Forwarded-For`); no lookup of a private or loopback address; at most `latencyBudget` of
/// waiting, after which the request goes on and the lookup fills the cache; `limits` on what
/// reaches the API; 503 for a failed lookup when `failureMode` is `.closed`; the `policy`'s
/// `rejectionStatusCode` (403) for a client it turns away.
///
/// Make it with `app.ipdata.middleware(resolver:…)`, which uses the app's client and cancels
/// the lookups still pending when the application shuts down.
public struct IPDataVaporMiddleware: AsyncMiddleware {
    /// What looks the clients up, within the budget, and judges them.
    public let lookup: IPDataClientLookup

    /// A middleware over `client`; the parameters are those of `IPDataClientLookup`. Made this
    /// way, call `lookup.cancelPendingLookups()` at shutdown, as `app.ipdata.middleware` does.
    public init(
        client: IPDataClient, resolver: ClientAddressResolver, fields: [String]? = nil,
        latencyBudget: Duration = .milliseconds(250), failureMode: IPDataFailureMode = .open,
        policy: IPDataPolicy? = nil, limits: IPDataLookupLimits = .init()
    ) {
        lookup = IPDataClientLookup(
            client: client, resolver: resolver, fields: fields, latencyBudget: latencyBudget,
            failureMode: failureMode, policy: policy, limits: limits)
    }

    /// Looks the request's client up, within the budget, and passes the request on with what it
    /// learnt; or answers it at once, when the policy or a closed failure says so.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let info = await request.ipdata.withRequestLogger {
            await lookup.clientInfo(peer: request.remoteAddress?.ipAddress) { request.headers[$0] }
        }
        request.ipdata.clientInfo = info
        if let status = lookup.rejectionStatusCode(for: info) {
            return Response(status: HTTPResponseStatus(statusCode: status))
        }
        return try await next.respond(to: request)
    }
}
#endif
