import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What carries an `IPDataClient`'s HTTP requests.
///
/// A client built with a `URLSession` or a `URLSessionConfiguration` uses URLSession. Give a
/// client another transport with `IPDataClient(apiKey:baseURL:transport:cache:)`: the
/// `IPDataTesting` library's sandbox is one, answering from sample data with no network, for the
/// tests of apps that use this SDK.
///
/// A transport gets each request exactly as the API defines it: the method, the URL with the
/// `api-key` and `fields` query, the `api-key`, `Accept` and `User-Agent` headers, and for
/// `POST /bulk` a JSON body with its `Content-Type`. Nothing specific to URLSession or to a
/// platform is added; what one HTTP stack needs (URLSession's on Linux needs
/// `Expect: 100-continue` on a POST) is that transport's to add.
public protocol IPDataTransport: Sendable {
    /// Sends `request` and returns the response body and the response.
    ///
    /// Throw a `URLError` when no HTTP answer arrives; the client reports it as
    /// `IPDataError.networkError` (and resends a bulk request once after
    /// `URLError.networkConnectionLost`). Any HTTP status is an answer: return it.
    ///
    /// Do not follow a redirect to another origin (scheme, host or port): the request carries
    /// the API key in its URL and a header. Return the 3xx instead; the client reports it as
    /// `unexpectedStatus`. A client that gets an answer from another origin throws
    /// `networkError` rather than use it.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)

    /// Sends `request` as `data(for:)` does, told the limits the client holds it to.
    ///
    /// An `IPDataClient` calls this, never `data(for:)`, on a transport of yours. The client
    /// holds every request to its limits whatever the transport does: it cancels the call at
    /// `limits.deadline` and refuses an answer larger than `limits.maximumResponseSize` once it
    /// has arrived. A transport that reads its answer as it arrives should also stop reading past
    /// `limits.maximumResponseSize` bytes, with `URLError(.dataLengthExceedsMaximum)`, so that a
    /// huge answer never fills memory; if it has limits of its own, the smaller of each applies.
    ///
    /// The default implementation calls `data(for:)`.
    func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse)
}

extension IPDataTransport {
    /// Calls `data(for:)`: the client enforces `limits` around it (see the requirement).
    public func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse) {
        try await data(for: request)
    }
}

/// A transport of this package that holds each request to the `IPDataTransportLimits` it is
/// given by itself, the whole answer within the deadline, so the client puts no watch of its own
/// around it: `AsyncHTTPClientTransport`, whose `HTTPClient` ends a request at its deadline. (A
/// transport of the caller's is watched by the client, with a task of its own per request.)
package protocol LimitEnforcingTransport: IPDataTransport {
    /// The answer to `request` within `limits`, as `data(for:limits:)` gives it, except that a
    /// success (a 2xx status) from the request's own URL may come as `TransportAnswer.success`:
    /// the client reads nothing else of such an answer, and making its `HTTPURLResponse` costs
    /// more than the rest of the answer's way through the client.
    func answer(to request: URLRequest, limits: IPDataTransportLimits) async throws -> TransportAnswer
}

/// An answer as a `LimitEnforcingTransport` hands it to the client, within the calling task.
/// (Not declared `Sendable`, which it need not be: not every Apple SDK declares `URLResponse` so.)
package enum TransportAnswer {
    /// A 2xx status from the request's own URL (no redirect was followed), and the body.
    case success(status: Int, body: Data)
    /// Any answer, whole.
    case response(Data, URLResponse)
}

/// The limits an `IPDataClient` holds each request to, which it passes to its transport with
/// every request (`IPDataTransport.data(for:limits:)`): the client's
/// `IPDataClient.Configuration.deadline` and `IPDataClient.Configuration.maximumResponseSize`.
public struct IPDataTransportLimits: Sendable, Hashable {
    /// The most seconds the request may take, from the moment it is sent to the last byte of its
    /// answer: the configuration's `deadline`, or 60 s when it has none.
    public var deadline: TimeInterval
    /// The most bytes the answer may have: the configuration's `maximumResponseSize`.
    public var maximumResponseSize: Int

    /// Limits of `deadline` seconds and `maximumResponseSize` bytes.
    public init(deadline: TimeInterval, maximumResponseSize: Int) {
        self.deadline = deadline
        self.maximumResponseSize = maximumResponseSize
    }

    /// The error of an answer larger than `bytes`, in the words of the client and its URLSession
    /// transport, naming `setting` (a transport's own limit) instead of the client's when given.
    package static func tooLargeError(_ bytes: Int, see setting: String? = nil) -> URLError {
        TransferWatch.Stop.tooLarge(Int64(bytes)).error(see: setting)
    }

    /// The error of an answer that took longer than `seconds`, in the words of the client and its
    /// URLSession transport, naming `setting` (a transport's own limit) instead of the client's
    /// deadline when given.
    package static func deadlineError(_ seconds: TimeInterval, see setting: String? = nil) -> URLError {
        TransferWatch.Stop.deadline(seconds).error(see: setting)
    }
}
