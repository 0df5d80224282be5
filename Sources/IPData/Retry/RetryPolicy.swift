import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When an `IPDataClient` sends a request again, and how long it waits first.
///
/// The default policy, `.default`, retries nothing but the one resend of a bulk request over a
/// lost connection that the client has always made (see `BulkResends`). Choose `.recommended`,
/// or a policy of your own, to retry:
///
/// - a 429 answer (the API refused the request for the rate, without acting on it), and a 5xx
///   answer of a lookup, after the wait its `Retry-After` header asks for (seconds or an HTTP
///   date), else after an exponential backoff with full jitter;
/// - a request that got no answer at all: a lookup (`GET`) after any connection-level failure,
///   a bulk request only when it cannot have reached the server (no connection could be made).
///
/// The API bills the addresses of a bulk request (`POST /bulk`) once it has answered it, so
/// `bulkResends` decides whether one is sent again after a failure after which the server may
/// have read it: a 5xx answer (a gateway's 502 may come after the API answered), or a connection
/// lost or timed out after the request left.
///
/// When a policy retries rate limits, a 429 also holds back every other call of the same client
/// for the wait it asked for (`Retry-After`, else the backoff's, at most `maximumDelay`): a client
/// that many tasks share slows down as a whole instead of sending more requests into the limit.
///
/// 400, 401, 403 and 404 are never retried: the same request would fail the same way, and a 403
/// means the quota is spent or the plan does not allow the call. A call stops retrying once
/// `maximumAttempts` requests were sent, or when the next wait would end past `timeBudget`
/// (counted from the call's first request); it then throws the last failure. Cancelling the
/// calling task ends a wait at once, with `IPDataError.networkError(URLError(.cancelled))`.
public struct RetryPolicy: Sendable, Equatable {
    /// The most requests one call sends, the first included: 1 never retries.
    public var maximumAttempts: Int
    /// The longest wait before the second request, when no `Retry-After` says otherwise; each
    /// later wait may be twice as long, up to `maximumDelay`. The wait is drawn at random between
    /// zero and that bound ("full jitter"), so that many clients do not retry in step.
    public var initialDelay: TimeInterval
    /// The longest any one wait may be. A `Retry-After` that asks for longer ends the retries.
    public var maximumDelay: TimeInterval
    /// The most time, in seconds from its first request, that a call may spend retrying.
    public var timeBudget: TimeInterval
    /// Retry a 429 (too many requests) or a 5xx (server error) answer.
    public var retriesRateLimitsAndServerErrors: Bool
    /// Retry a request that got no answer (see the type's description for bulk requests).
    public var retriesConnectionFailures: Bool
    /// When a bulk request is sent again after a failure after which the server may have read it;
    /// `.onceAfterLostConnection` by default, in every policy.
    public var bulkResends = BulkResends.onceAfterLostConnection

    /// When a bulk request (`POST /bulk`), whose addresses the API bills once it has answered
    /// it, is sent again. Whatever the rule, one that cannot have reached the server (no
    /// connection could be made) or that got a 429 is retried as the policy says.
    public enum BulkResends: Sendable, Equatable {
        /// Never after a failure after which the server may have read it: a request is paid for
        /// at most once. What the `ipdata` tool does unless told otherwise.
        case never
        /// Once, at once, when the connection is lost before any answer arrives
        /// (`URLError.networkConnectionLost`, typically a pooled connection the server had
        /// closed), whatever the policy's attempts: what the client has always done. Over a
        /// connection reset after the server read the request (measured on Linux over plain
        /// http, and through AsyncHTTPClient), this pays for the request twice.
        case onceAfterLostConnection
        /// As a lookup is: also after a 5xx answer, or a connection lost or timed out, within the
        /// policy's attempts and budget. Each resend may cost the request's addresses again.
        case asLookups
    }

    /// A policy; every parameter is described with its property.
    public init(
        maximumAttempts: Int, initialDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 8,
        timeBudget: TimeInterval = 30, retriesRateLimitsAndServerErrors: Bool = true,
        retriesConnectionFailures: Bool = true
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = max(0, initialDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.timeBudget = max(0, timeBudget)
        self.retriesRateLimitsAndServerErrors = retriesRateLimitsAndServerErrors
        self.retriesConnectionFailures = retriesConnectionFailures
    }

    /// Retries nothing but the resend of a bulk request over a lost connection
    /// (`BulkResends.onceAfterLostConnection`): what the client does unless told otherwise.
    public static let `default` = RetryPolicy(
        maximumAttempts: 1, retriesRateLimitsAndServerErrors: false, retriesConnectionFailures: false)

    /// Up to 4 requests per call, waits from 0.5 s doubling to at most 8 s, within 30 s:
    /// rate limits, server errors and connection failures (of a bulk request, only those after
    /// which the server cannot have read it: see the type's description).
    public static let recommended = RetryPolicy(maximumAttempts: 4)
}

extension RetryPolicy {
    /// What one attempt ended with, as far as retrying is concerned.
    enum Outcome {
        /// An HTTP answer with this status and, when it had one, the wait its `Retry-After` asks for.
        case answered(status: Int, retryAfter: TimeInterval?)
        /// No HTTP answer.
        case failed(URLError)
    }

    /// The wait before the next request, or nil when the call must not send another.
    ///
    /// - Parameters:
    ///   - attempt: How many requests were sent so far (1 after the first).
    ///   - elapsed: Seconds since the first request was sent.
    ///   - isBulk: Whether the request is `POST /bulk`, which is billed once answered.
    ///   - random: Draws the jittered wait from a range.
    func delay(
        after outcome: Outcome, attempt: Int, elapsed: TimeInterval, isBulk: Bool,
        random: (ClosedRange<TimeInterval>) -> TimeInterval
    ) -> TimeInterval? {
        guard attempt < maximumAttempts else { return nil }
        let requested: TimeInterval?
        switch outcome {
        case .answered(let status, let retryAfter):
            // A 429 was not acted on; a bulk request's 5xx may come after the API answered it.
            let serverError = (500...599).contains(status) && (!isBulk || bulkResends == .asLookups)
            guard retriesRateLimitsAndServerErrors, status == 429 || serverError else { return nil }
            requested = retryAfter
        case .failed(let error):
            let onlyIfNotSent = isBulk && bulkResends != .asLookups
            guard retriesConnectionFailures, Self.mayRetry(error, onlyIfNotSent: onlyIfNotSent) else { return nil }
            requested = nil
        }
        let wait: TimeInterval
        if let requested {
            guard requested <= maximumDelay else { return nil }
            wait = max(0, requested)
        } else {
            let bound = min(maximumDelay, initialDelay * pow(2, Double(attempt - 1)))
            wait = random(0...bound)
        }
        return elapsed + wait <= timeBudget ? wait : nil
    }

    /// Failures after which the request cannot have reached the server. Not
    /// `networkConnectionLost`: URLSession reports it when a connection is reset after the server
    /// read the whole request (measured on Linux over plain http), and AsyncHTTPClient when the
    /// server reset a reused connection after reading it.
    private static let notSent: Set<URLError.Code> = [
        .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet,
    ]
    /// Failures before any HTTP request could leave: `notSent`, and a TLS handshake that failed.
    /// (On Linux libcurl reports a failed handshake as `.unknown`, which is not among them.)
    private static let neverLeft: Set<URLError.Code> = notSent.union([
        .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
        .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection,
    ])
    /// Failures of a lookup (`GET`) worth another try: the above, and an answer that never came.
    private static let transient: Set<URLError.Code> = notSent.union([
        .networkConnectionLost, .timedOut, .unknown, .badServerResponse,
    ])

    /// Whether a request that failed with `error` is worth another try; with `onlyIfNotSent`
    /// (a bulk request), only when it cannot have reached the server.
    static func mayRetry(_ error: URLError, onlyIfNotSent: Bool) -> Bool {
        onlyIfNotSent ? notSent.contains(error.code) : transient.contains(error.code)
    }

    /// Whether a request that failed with `error` may have reached the server: false when no
    /// connection could be made or its TLS handshake failed.
    static func mayHaveReachedTheServer(_ error: URLError) -> Bool {
        !neverLeft.contains(error.code)
    }
}
