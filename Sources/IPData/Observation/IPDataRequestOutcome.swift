import Foundation

/// How one HTTP request ended, as an `IPDataObserver` is told: an answer with its status, or a
/// failure.
public struct IPDataRequestOutcome: Sendable {
    /// The answer's HTTP status, or nil when no answer came.
    public let statusCode: Int?
    /// Why no answer came (a network failure, the deadline, the size limit, a cancellation),
    /// with no key in it; nil when one came, whatever its status.
    public let failure: IPDataError?
    /// The seconds from sending the request to the end of its answer or its failure. The wait
    /// for a free request slot (`IPDataClient.Configuration.maximumConcurrentRequests`) is not
    /// counted.
    public let duration: TimeInterval
    /// The bytes of the answer's body; 0 when no answer came.
    public let bytesReceived: Int
    /// The answer's `Retry-After` header as it came (seconds or an HTTP date), if it had one.
    public let retryAfter: String?
    /// Whether the request may have reached the server: false when it failed before any could
    /// (no connection, a failed TLS handshake). A cancelled request counts as reached.
    public let mayHaveReachedTheServer: Bool

    /// An outcome, as the client describes its own (for the tests of an observer).
    public init(
        statusCode: Int?, failure: IPDataError?, duration: TimeInterval, bytesReceived: Int, retryAfter: String? = nil,
        mayHaveReachedTheServer: Bool = true
    ) {
        self.statusCode = statusCode
        self.failure = failure
        self.duration = duration
        self.bytesReceived = bytesReceived
        self.retryAfter = retryAfter
        self.mayHaveReachedTheServer = mayHaveReachedTheServer
    }
}
