import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The limits an `IPDataClient` holds each request to, which it passes to its transport with
/// every request (`IPDataTransport.response(for:limits:)`): the client's
/// `IPDataClient.Configuration.deadline` and `IPDataClient.Configuration.maximumResponseSize`.
public struct IPDataTransportLimits: Sendable, Hashable {
    /// The most seconds the request may take, from the moment it is sent to the last byte of its
    /// answer: the configuration's `deadline`; without one, twice the session's
    /// `timeoutIntervalForRequest` for a URLSession, and 60 s for a transport of your own.
    public var deadline: TimeInterval
    /// The most bytes the answer may have: the configuration's `maximumResponseSize`.
    public var maximumResponseSize: Int

    /// Limits of `deadline` seconds and `maximumResponseSize` bytes.
    public init(deadline: TimeInterval, maximumResponseSize: Int) {
        self.deadline = deadline
        self.maximumResponseSize = maximumResponseSize
    }

    /// A client's limits for a transport of its caller's, without a configuration that says
    /// otherwise: 60 s and 10 MiB.
    static let ownTransport = IPDataTransportLimits(deadline: 60, maximumResponseSize: 10 * 1_048_576)

    /// The error of an answer larger than `bytes`, in the words of the client and its URLSession
    /// transport (`URLError(.dataLengthExceedsMaximum)`), naming `setting` (a transport's own
    /// limit, such as `"MyTransport.maximumSize"`) instead of the client's when given.
    public static func tooLargeError(_ bytes: Int, see setting: String? = nil) -> URLError {
        TransferWatch.Stop.tooLarge(Int64(bytes)).error(see: setting)
    }

    /// The error of an answer that took longer than `seconds`, in the words of the client and its
    /// URLSession transport (`URLError(.timedOut)`), naming `setting` (a transport's own limit)
    /// instead of the client's deadline when given.
    public static func deadlineError(_ seconds: TimeInterval, see setting: String? = nil) -> URLError {
        TransferWatch.Stop.deadline(seconds).error(see: setting)
    }
}
