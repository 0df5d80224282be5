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
}
