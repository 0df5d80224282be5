#if Vapor
import AsyncHTTPClient
import IPData
import IPDataAsyncHTTPClient
@_exported import IPDataServer
import Vapor

extension Application {
    /// The app's ipdata.co client: set it up once with `app.ipdata.use(apiKey:)` while the app is
    /// configured, then use `app.ipdata.client`, or `req.ipdata` inside a request.
    public var ipdata: IPDataApplication { IPDataApplication(application: self) }
}

/// The ipdata.co client of a Vapor `Application` (`app.ipdata`).
///
/// ```swift
/// app.ipdata.use(apiKey: Environment.get("IPDATA_API_KEY") ?? "")
/// app.middleware.use(app.ipdata.middleware(resolver: try ClientAddressResolver(trustedProxies: ["127.0.0.1"])))
/// ```
///
/// `use(apiKey:)` carries the requests over AsyncHTTPClient on the app's event loop group: an
/// `HTTPClient` made with `AsyncHTTPClientTransport.clientConfiguration` and shut down with the
/// application. It is not the app's own `app.http.client.shared`, because that one follows
/// redirects, which would carry the API key to wherever a redirect points; pass it as
/// `httpClient:` if you have made it follow none.
public struct IPDataApplication: Sendable {
    /// The application this client belongs to.
    public let application: Application

    struct ClientKey: StorageKey {
        typealias Value = IPDataClient
    }

    /// Whether `use(apiKey:)` or `use(_:)` has given the app a client.
    public var isConfigured: Bool { application.storage.contains(ClientKey.self) }

    /// The app's client. Calling this before `use(apiKey:)` or `use(_:)` is a programming error,
    /// which stops the app with a message that says so.
    public var client: IPDataClient {
        guard let client = application.storage[ClientKey.self] else {
            fatalError("app.ipdata is not configured: call app.ipdata.use(apiKey:) while configuring the app.")
        }
        return client
    }

    /// Gives the app a client with `apiKey` and `configuration`, whose requests go over
    /// AsyncHTTPClient: through `httpClient` when given (never shut down here), else through an
    /// `HTTPClient` of the app's event loop group, made with
    /// `AsyncHTTPClientTransport.clientConfiguration` and shut down with the application. The
    /// configuration's `connection` is replaced by that transport.
    public func use(
        apiKey: String, configuration: IPDataClient.Configuration = .init(), httpClient: HTTPClient? = nil
    ) {
        let transport: AsyncHTTPClientTransport
        if let httpClient {
            transport = AsyncHTTPClientTransport(client: httpClient)
        } else {
            let owned = HTTPClient(
                eventLoopGroupProvider: .shared(application.eventLoopGroup),
                configuration: AsyncHTTPClientTransport.clientConfiguration,
                backgroundActivityLogger: application.logger)
            application.lifecycle.use(OwnedHTTPClient(client: owned))
            transport = AsyncHTTPClientTransport(client: owned)
        }
        var configuration = configuration
        configuration.connection = .transport(transport)
        use(IPDataClient(apiKey: apiKey, configuration: configuration))
    }

    /// Gives the app `client`, made as you like (its transport is yours to shut down).
    public func use(_ client: IPDataClient) {
        application.storage[ClientKey.self] = client
    }

    /// A middleware that looks up each request's client with the app's `client`; its pending
    /// lookups are cancelled when the application shuts down, before the client's `HTTPClient`.
    /// The parameters are those of `IPDataVaporMiddleware`.
    public func middleware(
        resolver: ClientAddressResolver, fields: [String]? = nil, latencyBudget: Duration = .milliseconds(250),
        failureMode: IPDataFailureMode = .open, policy: IPDataPolicy? = nil, limits: IPDataLookupLimits = .init()
    ) -> IPDataVaporMiddleware {
        let middleware = IPDataVaporMiddleware(
            client: client, resolver: resolver, fields: fields, latencyBudget: latencyBudget,
            failureMode: failureMode, policy: policy, limits: limits)
        application.lifecycle.use(PendingLookups(lookup: middleware.lookup))
        return middleware
    }

    /// Shuts down the `HTTPClient` that `use(apiKey:)` made. Lifecycle handlers shut down in the
    /// reverse order of their registration, so a middleware's (made after `use`) ends its
    /// lookups first.
    struct OwnedHTTPClient: LifecycleHandler {
        let client: HTTPClient

        func shutdownAsync(_ application: Application) async {
            try? await client.shutdown()
        }

        func shutdown(_ application: Application) {
            try? client.syncShutdown()
        }
    }

    /// Ends a middleware's pending lookups at shutdown, before the `HTTPClient` they use.
    struct PendingLookups: LifecycleHandler {
        let lookup: IPDataClientLookup

        func shutdownAsync(_ application: Application) async {
            await lookup.cancelPendingLookups()
        }

        func shutdown(_ application: Application) {
            // `Application.shutdown()` (not async) cannot wait: the lookups are only cancelled.
            let lookup = self.lookup
            Task { await lookup.cancelPendingLookups() }
        }
    }
}
#endif
