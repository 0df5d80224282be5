#if Observability
import Foundation
import IPData
import Tracing

/// Traces what a client does with swift-distributed-tracing: a span a call (`ipdata.address`,
/// `ipdata.bulk`, …), a child of the caller's current span (a server request's, so the lookup
/// joins the request's trace), and a client span for each HTTP request under it, with the
/// OpenTelemetry HTTP attributes that apply: `http.request.method`, `url.full` (the API key
/// redacted), `server.address`, `server.port`, `http.response.status_code`,
/// `http.request.resend_count`, `error.type`. Cache reads, retry waits and shared calls are events
/// of the call's span.
///
/// ```swift
/// var configuration = IPDataClient.Configuration()
/// configuration.observer = IPDataTracingObserver()
/// ```
public final class IPDataTracingObserver: IPDataObserver, @unchecked Sendable {
    // @unchecked Sendable: `calls` and `requests` are only touched under `lock`; the tracer and
    // the spans are Sendable.
    private let tracer: any Tracer
    private let lock = NSLock()
    private var calls: [UInt64: any Span] = [:]
    private var requests: [String: any Span] = [:]

    /// An observer that starts its spans with `tracer`: the bootstrapped system's by default.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Starts the call's span, under the current task's span.
    public func callStarted(_ call: IPDataCall) {
        let span = tracer.startSpan("ipdata.\(call.endpoint.name)", context: ServiceContext.current ?? .topLevel)
        span.attributes["ipdata.addresses"] = call.addressCount
        lock.withLock { calls[call.id] = span }
    }

    /// Ends the call's span, with its error.
    public func callEnded(_ call: IPDataCall, error: IPDataError?, duration: TimeInterval) {
        guard let span = lock.withLock({ calls.removeValue(forKey: call.id) }) else { return }
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: "\(error)"))
        }
        span.end()
    }

    /// Starts a client span for the request, under its call's span.
    public func requestStarted(_ request: IPDataRequest) {
        let parent = lock.withLock { calls[request.call.id] }?.context ?? ServiceContext.current ?? .topLevel
        let span = tracer.startSpan(request.method, context: parent, ofKind: .client)
        span.attributes["http.request.method"] = request.method
        span.attributes["url.full"] = request.url.absoluteString
        if let host = request.url.host { span.attributes["server.address"] = host }
        span.attributes["server.port"] = request.url.port ?? (request.url.scheme == "http" ? 80 : 443)
        if request.attempt > 1 { span.attributes["http.request.resend_count"] = request.attempt - 1 }
        span.attributes["ipdata.addresses"] = request.addressCount
        lock.withLock { requests[Self.key(request)] = span }
    }

    /// Ends the request's span with its status, or its failure.
    public func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
        guard let span = lock.withLock({ requests.removeValue(forKey: Self.key(request)) }) else { return }
        if let status = outcome.statusCode {
            span.attributes["http.response.status_code"] = status
            if status >= 400 {
                span.attributes["error.type"] = "\(status)"
                span.setStatus(SpanStatus(code: .error))
            }
        }
        if let failure = outcome.failure {
            span.attributes["error.type"] = Self.errorType(failure)
            span.recordError(failure)
            span.setStatus(SpanStatus(code: .error, message: "\(failure)"))
        }
        span.attributes["http.response.body.size"] = outcome.bytesReceived
        span.end()
    }

    /// An event of the call's span.
    public func cacheRead(_ read: IPDataCacheRead) {
        var attributes = SpanAttributes()
        attributes["ipdata.cache.tier"] = read.tier.rawValue
        attributes["ipdata.cache.hits"] = read.hits
        attributes["ipdata.cache.misses"] = read.misses
        event(read.call, "cache_read", attributes)
    }

    /// An event of the call's span.
    public func retryWaitStarted(_ wait: IPDataRetryWait) {
        var attributes = SpanAttributes()
        attributes["ipdata.attempt"] = wait.attempt
        attributes["ipdata.wait_seconds"] = wait.seconds
        event(wait.call, "retry_wait", attributes)
    }

    /// An event of the call's span.
    public func callCoalesced(_ call: IPDataCall) {
        event(call, "shared_request", SpanAttributes())
    }

    private func event(_ call: IPDataCall, _ name: String, _ attributes: SpanAttributes) {
        lock.withLock { calls[call.id] }?.addEvent(SpanEvent(name: name, attributes: attributes))
    }

    private static func key(_ request: IPDataRequest) -> String {
        "\(request.call.id)/\(request.attempt)"
    }

    /// The failure's kind, as OpenTelemetry's `error.type` wants it: low in cardinality.
    private static func errorType(_ error: IPDataError) -> String {
        guard case .networkError(let underlying) = error else { return "\(type(of: error))" }
        if let urlError = underlying as? URLError { return "URLError.\(urlError.code.rawValue)" }
        return String(describing: type(of: underlying))
    }
}
#endif
