#if Observability
import Foundation
import IPData
import Logging

/// Writes what a client does to a swift-log `Logger`: a line a request at `.debug`, with its
/// endpoint, status, attempt, duration and size; a failed request or an error status at
/// `.warning`; a cache read, a retry wait and a shared call at `.debug`. No line holds the API
/// key: the client tells an observer nothing that does.
///
/// ```swift
/// var configuration = IPDataClient.Configuration()
/// configuration.observer = IPDataLoggingObserver(logger: Logger(label: "ipdata"))
/// ```
///
/// Inside a server request, bind the request's logger to `requestLogger` around the call, and
/// its lines carry the request's metadata (its request id): `IPDataMiddleware` does this when
/// both its trait and `Observability` are on.
public struct IPDataLoggingObserver: IPDataObserver {
    /// The logger of the current task's request, used instead of `logger` when set.
    @TaskLocal public static var requestLogger: Logger?

    /// The logger used outside a request.
    public let logger: Logger

    /// An observer that writes to `logger`, or to the current request's.
    public init(logger: Logger) {
        self.logger = logger
    }

    private var current: Logger { Self.requestLogger ?? logger }

    /// Logs the request: `.debug` for an answer below 400, `.warning` for the rest.
    public func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
        var metadata = Self.metadata(of: request.call)
        metadata["ipdata.attempt"] = "\(request.attempt)"
        metadata["ipdata.duration_ms"] = "\(Int((outcome.duration * 1_000).rounded()))"
        metadata["ipdata.bytes"] = "\(outcome.bytesReceived)"
        metadata["http.request.method"] = "\(request.method)"
        metadata["url.path"] = "\(request.url.path)"
        if let status = outcome.statusCode { metadata["http.response.status_code"] = "\(status)" }
        if let retryAfter = outcome.retryAfter { metadata["http.response.retry_after"] = "\(retryAfter)" }
        if let failure = outcome.failure {
            metadata["error"] = "\(failure)"
            current.warning("ipdata request failed", metadata: metadata)
        } else if let status = outcome.statusCode, status >= 400 {
            current.warning("ipdata request answered \(status)", metadata: metadata)
        } else {
            current.debug("ipdata request", metadata: metadata)
        }
    }

    /// Logs the read at `.debug`: its tier, hits and misses.
    public func cacheRead(_ read: IPDataCacheRead) {
        var metadata = Self.metadata(of: read.call)
        metadata["ipdata.cache.tier"] = "\(read.tier.rawValue)"
        metadata["ipdata.cache.hits"] = "\(read.hits)"
        metadata["ipdata.cache.misses"] = "\(read.misses)"
        current.debug("ipdata cache read", metadata: metadata)
    }

    /// Logs the wait at `.debug`.
    public func retryWaitStarted(_ wait: IPDataRetryWait) {
        var metadata = Self.metadata(of: wait.call)
        metadata["ipdata.attempt"] = "\(wait.attempt)"
        metadata["ipdata.wait_ms"] = "\(Int((wait.seconds * 1_000).rounded()))"
        metadata["ipdata.wait_reason"] = "\(wait.reason)"
        current.debug("ipdata retry wait", metadata: metadata)
    }

    /// Logs the shared call at `.debug`.
    public func callCoalesced(_ call: IPDataCall) {
        current.debug("ipdata call shared another's request", metadata: Self.metadata(of: call))
    }

    private static func metadata(of call: IPDataCall) -> Logger.Metadata {
        [
            "ipdata.call": "\(call.id)", "ipdata.endpoint": "\(call.endpoint)",
            "ipdata.addresses": "\(call.addressCount)",
        ]
    }
}
#endif
