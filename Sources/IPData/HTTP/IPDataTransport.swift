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
public protocol IPDataTransport: Sendable {
    /// Sends `request` and returns the response body and the response.
    ///
    /// Throw a `URLError` when no HTTP answer arrives; the client reports it as
    /// `IPDataError.networkError` (and resends a bulk request once after
    /// `URLError.networkConnectionLost`). Any HTTP status is an answer: return it.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)
}

/// The transport of clients built on a `URLSession`.
struct URLSessionTransport: IPDataTransport {
    let session: URLSession
    /// See `Platform.abandonmentLimit(for:)`; nil for a session the client owns.
    let abandonAfter: TimeInterval?

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await Platform.data(for: request, session: session, abandonAfter: abandonAfter)
    }
}
