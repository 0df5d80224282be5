#if Vapor
import IPData
import IPDataServer
import Logging
import Vapor

#if Observability
import IPDataObservability
#endif

extension Request {
    /// The app's ipdata.co client within this request, and what `IPDataVaporMiddleware` learnt
    /// of the request's client.
    public var ipdata: IPDataRequestClient { IPDataRequestClient(request: self) }
}

/// The app's ipdata.co client (`app.ipdata.client`) within one request (`req.ipdata`): its calls
/// are cancelled with the request's task, and, with the `Observability` trait, an
/// `IPDataLoggingObserver` writes their lines to the request's `logger`, with its request id.
///
/// ```swift
/// app.get("country") { req async throws -> String in
///     try await req.ipdata.lookup("8.8.8.8", fields: ["country_name"]).countryName ?? "unknown"
/// }
/// ```
public struct IPDataRequestClient: Sendable {
    /// The request.
    public let request: Request

    struct ClientInfoKey: StorageKey {
        typealias Value = IPDataClientInfo
    }

    /// The app's client (see `IPDataApplication.client`).
    public var client: IPDataClient { request.application.ipdata.client }

    /// What `IPDataVaporMiddleware` learnt of this request's client; nil before it ran, or
    /// without it.
    public var clientInfo: IPDataClientInfo? {
        get { request.storage[ClientInfoKey.self] }
        nonmutating set { request.storage[ClientInfoKey.self] = newValue }
    }

    /// `IPDataClient.lookup(_:fields:)`, within this request.
    public func lookup(_ ip: String, fields: [String]? = nil) async throws -> IPResponse {
        try await withRequestLogger { try await client.lookup(ip, fields: fields) }
    }

    /// `IPDataClient.lookupAnswer(_:fields:)`, within this request.
    public func lookupAnswer(_ ip: String, fields: [String]? = nil) async throws -> IPLookupAnswer {
        try await withRequestLogger { try await client.lookupAnswer(ip, fields: fields) }
    }

    /// `IPDataClient.bulkLookup(_:fields:)`, within this request.
    public func bulkLookup(_ ips: [String], fields: [String]? = nil) async throws -> [IPResponse] {
        try await withRequestLogger { try await client.bulkLookup(ips, fields: fields) }
    }

    /// `IPDataClient.lookupASN(_:)`, within this request.
    public func lookupASN(_ asn: String) async throws -> ASNDetail {
        try await withRequestLogger { try await client.lookupASN(asn) }
    }

    /// Runs `operation` with the request's logger bound for `IPDataLoggingObserver`.
    func withRequestLogger<T: Sendable>(_ operation: () async throws -> T) async rethrows -> T {
        #if Observability
        try await IPDataLoggingObserver.$requestLogger.withValue(request.logger) { try await operation() }
        #else
        try await operation()
        #endif
    }
}
#endif
