import Foundation

/// A wait of a call before its next request, as an `IPDataObserver` is told of it: what the
/// retry policy (`RetryPolicy`) asks for after an answer or a failure, or the client's hold after
/// a 429.
public struct IPDataRetryWait: Sendable {
    /// Why the call waits.
    public enum Reason: Sendable {
        /// The last request was answered with this status (429, or a 5xx), which the policy retries.
        case answered(statusCode: Int)
        /// The last request failed (a lost connection, a timeout), which the policy retries; or a
        /// bulk request's connection was lost before any answer, which is sent again at once
        /// (`RetryPolicy.bulkResends`).
        case failed(IPDataError)
        /// A 429 of this client asked every call to wait (see `RetryPolicy`): no request goes out
        /// until then, whichever call it belongs to.
        case rateLimited
    }

    /// The call that waits.
    public let call: IPDataCall
    /// The attempt that goes out after the wait (see `IPDataRequest.attempt`).
    public let attempt: Int
    /// How long the call waits, in seconds; 0 for a bulk request sent again at once.
    public let seconds: TimeInterval
    /// Why it waits.
    public let reason: Reason

    /// A wait, as the client describes its own (for the tests of an observer).
    public init(call: IPDataCall, attempt: Int, seconds: TimeInterval, reason: Reason) {
        self.call = call
        self.attempt = attempt
        self.seconds = seconds
        self.reason = reason
    }
}
