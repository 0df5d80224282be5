import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What carries an `IPDataClient`'s HTTP requests.
///
/// A client built with a `URLSession` or a `URLSessionConfiguration` uses URLSession. Give a
/// client another transport with `IPDataClient.Configuration.connection` (`.transport(_:)`): the
/// `IPDataTesting` library's sandbox is one, answering from sample data with no network, for the
/// tests of apps that use this SDK.
///
/// A transport gets each request exactly as the API defines it: the method, the URL with the
/// `api-key` and `fields` query, the `api-key`, `Accept` and `User-Agent` headers, and for
/// `POST /bulk` a JSON body with its `Content-Type`. Nothing specific to URLSession or to a
/// platform is added; what one HTTP stack needs (URLSession's on Linux needs
/// `Expect: 100-continue` on a POST) is that transport's to add.
///
/// A client calls one requirement, `response(for:limits:)`: implement it for a transport that
/// keeps the limits itself as the answer arrives. A transport that implements `data(for:)`
/// instead (the requirement of 1.0.x, and with `data(for:limits:)` of 1.1.0) keeps working: the
/// default `response(for:limits:)` calls it and holds it to the limits with a watch of the
/// client's. Every requirement has a default; implement at least one.
public protocol IPDataTransport: Sendable {
    /// Sends `request` within `limits` and returns the answer: its status, headers and body.
    ///
    /// Throw a `URLError` when no HTTP answer arrives; the client reports it as
    /// `IPDataError.networkError` (and resends a bulk request once after
    /// `URLError.networkConnectionLost`). Any HTTP status is an answer: return it.
    ///
    /// Hold the request to `limits`: the whole answer must arrive within `limits.deadline`
    /// seconds of sending (else throw `IPDataTransportLimits.deadlineError(_:see:)`), and reading
    /// stops past `limits.maximumResponseSize` bytes (throw
    /// `IPDataTransportLimits.tooLargeError(_:see:)`), so that a huge answer never fills memory.
    /// The client refuses a larger body in any case, once it has it. If the transport has limits
    /// of its own, the smaller of each applies.
    ///
    /// Do not follow a redirect to another origin (scheme, host or port): the request carries
    /// the API key in its URL and a header. Return the 3xx instead; the client reports it as
    /// `unexpectedStatus`. A transport that followed a redirect within the origin says so in
    /// `IPDataTransportResponse.url`; a client that gets an answer from another origin throws
    /// `networkError` rather than use it.
    ///
    /// The default implementation calls `data(for:limits:)` of a transport written for 1.1.0 and
    /// before, and holds it to `limits` itself: it cancels the call at `limits.deadline` and
    /// refuses an answer larger than `limits.maximumResponseSize` once it has arrived.
    func response(for request: URLRequest, limits: IPDataTransportLimits) async throws -> IPDataTransportResponse

    /// Sends `request` and returns the response body and the response: the requirement of
    /// transports written for 1.0.x.
    ///
    /// The default implementation calls `response(for:limits:)` with the limits given to
    /// `data(for:limits:)`, if that was what was called, else with the client's defaults for a
    /// transport of its caller's (60 s, 10 MiB).
    func data(for request: URLRequest) async throws -> (Data, URLResponse)

    /// Sends `request` as `data(for:)` does, told the limits the client holds it to: the
    /// requirement of transports written for 1.1.0.
    ///
    /// The default implementation calls `data(for:)`.
    func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse)
}

extension IPDataTransport {
    /// Calls `data(for:limits:)` and holds it to `limits` (see the requirement).
    public func response(for request: URLRequest, limits: IPDataTransportLimits) async throws
        -> IPDataTransportResponse
    {
        let (body, response) = try await TransportDefaults.$current.withValue(
            TransportDefaults(limits: limits, answering: ObjectIdentifier(Self.self))
        ) {
            try await TransferWatch.shared.hold(limits) { try await self.data(for: request, limits: limits) }
        }
        guard let http = response as? HTTPURLResponse else {
            throw IPDataError.networkError(URLError(.badServerResponse))
        }
        return IPDataTransportResponse(http, body: body, requestURL: request.url)
    }

    /// Calls `response(for:limits:)` (see the requirement).
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let defaults = TransportDefaults.current
        // `response(for:limits:)`'s default came here: the transport implements none of the three.
        precondition(
            defaults?.answering != ObjectIdentifier(Self.self),
            "\(Self.self) implements no requirement of IPDataTransport: implement response(for:limits:)")
        let answer = try await response(for: request, limits: defaults?.limits ?? .ownTransport)
        return (answer.body, answer.urlResponse(for: request))
    }

    /// Calls `data(for:)` (see the requirement).
    public func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse) {
        let answering = TransportDefaults.current?.answering
        return try await TransportDefaults.$current.withValue(TransportDefaults(limits: limits, answering: answering)) {
            try await data(for: request)
        }
    }
}

extension IPDataTransport {
    /// Whether `url` has the origin of `other` (RFC 6454): the same scheme, host and port, with
    /// a scheme's default port filled in, so that `https://api.ipdata.co` and
    /// `https://API.ipdata.co:443/x` have one. A transport follows a redirect only within the
    /// request's origin, so that the key never leaves it. False when either has no host.
    public static func hasSameOrigin(_ url: URL, as other: URL) -> Bool {
        guard let origin = Origin(url) else { return false }
        return Origin(other) == origin
    }

    /// The origin of `url` as text, `scheme://host:port`, to name a server in a message: it
    /// carries neither the path nor the query, where the key travels. Nil when `url` has no host
    /// or no known port.
    public static func originText(of url: URL) -> String? {
        Origin(url)?.text
    }
}

/// What the default implementations of `IPDataTransport` hand each other within one request: the
/// limits given, and the transport whose `response(for:limits:)` default started the chain.
struct TransportDefaults: Sendable {
    let limits: IPDataTransportLimits
    let answering: ObjectIdentifier?

    @TaskLocal static var current: TransportDefaults?
}
