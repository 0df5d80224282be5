import Foundation

/// One HTTP request a client sent, as it ended: what `Configuration.onRequestEnd` is told, for
/// the command-line tool's `--verbose`. Each attempt is one request: a retried call reports each.
package struct SentRequest: Sendable {
    /// `GET` or `POST`.
    package let method: String
    /// The request's URL with the key replaced by `REDACTED`.
    package let url: URL
    /// The answer's HTTP status, or nil when none came.
    package let statusCode: Int?
    /// Why no answer came (a network failure, the deadline, a cancellation), with no key in it.
    package let failure: IPDataError?
    /// The seconds from sending the request to the end of its answer or failure; the wait for a
    /// free request slot is not counted.
    package let duration: TimeInterval
    /// The answer's `Retry-After` header as it came (seconds or an HTTP date), if it had one.
    package var retryAfter: String?
    /// Whether the request may have reached the server: false when it failed before any could
    /// (no connection, a failed TLS handshake). Counted as sent otherwise, a cancelled one too.
    package var mayHaveReachedTheServer = true

    package init(method: String, url: URL, statusCode: Int?, failure: IPDataError?, duration: TimeInterval) {
        self.method = method
        self.url = url
        self.statusCode = statusCode
        self.failure = failure
        self.duration = duration
    }
}
