import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport of clients built on a `URLSession`: everything URLSession needs, on each
/// platform, stays here, so that the client above it knows only HTTP answers.
///
/// It owns, for a session it creates, the session and its invalidation when the transport (with
/// its client) is released. Each request gets a `RequestDelegate`, which keeps the key at the
/// API's origin (no redirect elsewhere) and, on Linux, refuses the authentication challenge of a
/// 401 that would otherwise never end; the transport then answers with that 401. Each request is
/// held to the limits it comes with, its deadline and its size (`TransferWatch`,
/// `DelegatedTransfer`). Its answer leaves as URLSession made it: the headers are read from the
/// `HTTPURLResponse` only when the client asks for one (`IPDataTransportResponse`). On Linux it also adds
/// `Expect: 100-continue` to a request with a body (see `URLSessionQuirks`).
///
/// On Linux with Swift 5.9 or 5.10, whose Foundation has no task delegates, only a session the
/// client owns passes redirects and challenges to the request's delegate; through
/// `URLSession.shared` or an injected session, redirects are followed as URLSession does, and a
/// 401 challenge ends at the deadline.
final class URLSessionTransport: IPDataTransport {
    let session: URLSession
    /// The delegate of the session this transport created and owns; nil for a session it was
    /// given, which it never invalidates.
    let ownedSessionDelegate: OwnedSessionDelegate?
    /// How many requests the session carries at once over HTTP/1.1 without queueing one inside
    /// URLSession: its `httpMaximumConnectionsPerHost`. A request queued there waits for a
    /// connection with its timeout running, and libcurl's queue is not first-come: under a steady
    /// load a queued request can be overtaken until it times out, never sent. So a client has no
    /// more in flight than this, unless the answers show HTTP/2 (see `ConnectionProtocolWatch`).
    let concurrentRequests: Int

    /// Told of every answer over a session the client does not own, when the client would have
    /// more in flight over HTTP/2 than the session opens connections (see `ConnectionProtocolWatch`).
    let protocolWatch: ConnectionProtocolWatch?

    /// A transport over `session` (`URLSession.shared`, or the caller's), which it never
    /// invalidates; `protocolWatch`, if any, sees its answers.
    init(session: URLSession, protocolWatch: ConnectionProtocolWatch? = nil) {
        self.session = session
        self.ownedSessionDelegate = nil
        self.concurrentRequests = max(1, session.configuration.httpMaximumConnectionsPerHost)
        self.protocolWatch = protocolWatch
    }

    /// A transport over a session of its own, made once from a copy of `configuration` whose
    /// connection limit is raised to `concurrentRequests` if it is lower.
    init(configuration: URLSessionConfiguration, concurrentRequests: Int) {
        let delegate = OwnedSessionDelegate()
        let owned = URLSessionQuirks.ownedSessionConfiguration(configuration)
        owned.httpMaximumConnectionsPerHost = max(owned.httpMaximumConnectionsPerHost, concurrentRequests)
        self.session = URLSession(
            configuration: owned, delegate: delegate, delegateQueue: URLSessionQuirks.ownedSessionDelegateQueue())
        self.ownedSessionDelegate = delegate
        self.concurrentRequests = max(1, owned.httpMaximumConnectionsPerHost)
        self.protocolWatch = nil
    }

    /// The deadline of a client that sets none: twice the session's request timeout, which
    /// URLSession itself only applies to a silence.
    static func defaultDeadline(for configuration: URLSessionConfiguration) -> TimeInterval {
        2 * configuration.timeoutIntervalForRequest
    }

    deinit {
        if ownedSessionDelegate != nil { session.finishTasksAndInvalidate() }
    }

    func response(for request: URLRequest, limits: IPDataTransportLimits) async throws -> IPDataTransportResponse {
        let (body, response) = try await answer(to: request, limits: limits)
        guard let http = response as? HTTPURLResponse else {
            throw IPDataError.networkError(URLError(.badServerResponse))
        }
        return IPDataTransportResponse(http, body: body, requestURL: request.url)
    }

    /// URLSession's answer to `request`, within `limits`.
    private func answer(to request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse) {
        var request = request
        if request.httpBody != nil { URLSessionQuirks.prepareBodyRequest(&request) }
        // The API's answers are not to be cached: the URL carries the key, and threat data changes.
        // (A session of the client's own has no cache at all; `URLSession.shared` has one.)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let delegate = RequestDelegate()
        let owned = ownedSessionDelegate
        defer { owned?.forget(delegate) }
        let attach: @Sendable (URLSessionDataTask) -> Void = { task in
            if let owned {
                // The session's own delegate passes the request's redirects and challenges on
                // (cheaper than a task delegate, and there on every toolchain).
                owned.route(task, to: delegate)
                return
            }
            #if canImport(Darwin) || compiler(>=6.0)
            // A task delegate answers before the session's, for any session.
            task.delegate = delegate
            #endif
            // swift-corelibs-foundation before Swift 6 has no task delegates: only a session the
            // client owns can pass its requests' redirects and challenges on.
        }
        do {
            if let owned {
                return try await DataTaskCall.delegatedData(for: request, session: session, limits: limits) {
                    task, transfer in
                    owned.track(task, transfer)
                    attach(task)
                }
            }
            let answer = try await DataTaskCall.data(for: request, session: session, limits: limits, attach: attach)
            protocolWatch?.observe(answer.1)
            return answer
        } catch let error as URLError where error.code == .cancelled && !Task.isCancelled {
            // A refused authentication challenge also ends as `.cancelled`; tell it from a
            // cancelled task, and answer with the 401 the server sent.
            guard let refusal = delegate.refusedChallenge else { throw error }
            return refusal.answer(to: request)
        }
    }
}
