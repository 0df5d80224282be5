import Foundation
import IPData

/// One HTTP request a client sent, as it ended: what `RequestTally` counts and `RequestLog`
/// shows for `--verbose`. Each attempt is one request: a retried call reports each.
struct SentRequest: Sendable {
    /// `GET` or `POST`.
    let method: String
    /// The request's URL with the key replaced by `REDACTED`.
    let url: URL
    /// The answer's HTTP status, or nil when none came.
    let statusCode: Int?
    /// Why no answer came (a network failure, the deadline, a cancellation), with no key in it.
    let failure: IPDataError?
    /// The seconds from sending the request to the end of its answer or failure; the wait for a
    /// free request slot is not counted.
    let duration: TimeInterval
    /// The answer's `Retry-After` header as it came (seconds or an HTTP date), if it had one.
    var retryAfter: String?
    /// Whether the request may have reached the server: false when it failed before any could
    /// (no connection, a failed TLS handshake). Counted as sent otherwise, a cancelled one too.
    var mayHaveReachedTheServer = true

    init(method: String, url: URL, statusCode: Int?, failure: IPDataError?, duration: TimeInterval) {
        self.method = method
        self.url = url
        self.statusCode = statusCode
        self.failure = failure
        self.duration = duration
    }

    /// The request the client's observer was told of, as it ended.
    init(_ request: IPDataRequest, _ outcome: IPDataRequestOutcome) {
        self.init(
            method: request.method, url: request.url, statusCode: outcome.statusCode, failure: outcome.failure,
            duration: outcome.duration)
        retryAfter = outcome.retryAfter
        mayHaveReachedTheServer = outcome.mayHaveReachedTheServer
    }
}

/// The client's observer of the tool: hands each request, as it ends, to `record`.
struct SentRequestObserver: IPDataObserver {
    let record: @Sendable (SentRequest) -> Void

    func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
        record(SentRequest(request, outcome))
    }
}
