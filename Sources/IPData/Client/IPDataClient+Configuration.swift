import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension IPDataClient {
    /// Everything a client is made from besides its key: where the API is, what carries the
    /// requests, the cache and the retry policy. Every property has a default, so a
    /// configuration names only what differs.
    ///
    /// ```swift
    /// let client = IPDataClient(
    ///     apiKey: "YOUR_API_KEY",
    ///     configuration: .init(baseURL: IPDataClient.euBaseURL, cache: LookupCache(), retryPolicy: .recommended))
    /// ```
    public struct Configuration: Sendable {
        /// The API's address; `euBaseURL` for the EU endpoint, or a gateway URL, whose path
        /// prefix is kept. `defaultBaseURL` by default.
        public var baseURL: URL
        /// What carries the requests; `URLSession.shared` by default.
        public var connection: Connection
        /// Where lookups are kept to be answered again without a request; none by default.
        public var cache: LookupCache?
        /// A store of lookups behind `cache`, such as `ValkeyLookupStore` of the `IPDataValkey`
        /// library, which every instance of an app shares; none by default. A lookup reads `cache`
        /// first, then this store, and an answer of the API fills both. A `LookupCache` given
        /// here alone serves as `cache`.
        public var cacheStore: (any LookupCacheStore)?
        /// When a failed request is sent again; by default only a bulk request over a dead
        /// pooled connection (see `RetryPolicy`).
        public var retryPolicy: RetryPolicy
        /// Whether a plain `http` base URL may be used for a host other than this machine. Every
        /// request carries the key, which `http` sends in clear text; so by default such a client
        /// sends nothing and throws `networkError(URLError(.appTransportSecurityRequiresSecureConnection))`.
        /// `http://localhost`, `http://127.0.0.1` and `http://[::1]` are always allowed (tests).
        public var allowsInsecureHTTP: Bool
        /// The most requests the client has in flight at once; more wait in the client, in the
        /// order they came, before their timeout starts. 16 by default.
        ///
        /// A request must never wait inside URLSession, where its timeout runs while it waits for
        /// a connection (over HTTP/1.1 a session opens `httpMaximumConnectionsPerHost` a host: 6
        /// by default, 4 on iOS). So a session the client owns gets at least this many
        /// connections a host. Over `URLSession.shared` or a session of yours the client has at
        /// most that session's `httpMaximumConnectionsPerHost` in flight until an answer shows
        /// HTTP/2, which multiplexes requests over one connection and queues none: no `Connection`,
        /// `Keep-Alive` or `Transfer-Encoding` header, which HTTP/2 forbids. Then it has this many,
        /// until an answer shows HTTP/1.1.
        public var maximumConcurrentRequests: Int
        /// The most seconds one request may take, from the moment it is sent to the last byte of
        /// its answer; past it the request fails with `networkError(URLError(.timedOut))`.
        /// URLSession's own timeout only bounds a silence, so a server that sends one byte a
        /// second would otherwise hold a request for ever. nil, the default, means twice the
        /// session's `timeoutIntervalForRequest` (120 s for `URLSession.shared`), or 60 s for a
        /// transport of your own.
        public var deadline: TimeInterval?
        /// The most bytes an answer may have; a larger one fails with
        /// `networkError(URLError(.dataLengthExceedsMaximum))` as soon as it passes the limit.
        /// 10 MiB by default, forty times the API's largest answer (a full bulk answer, about
        /// 250 KB).
        public var maximumResponseSize: Int
        /// What watches the client: each call, request, wait and cache read, for logs, metrics
        /// and traces (see `IPDataObserver`); none by default.
        public var observer: (any IPDataObserver)?

        /// A configuration; every parameter is described with its property.
        public init(
            baseURL: URL = IPDataClient.defaultBaseURL, connection: Connection = .shared, cache: LookupCache? = nil,
            retryPolicy: RetryPolicy = .default, allowsInsecureHTTP: Bool = false, maximumConcurrentRequests: Int = 16,
            deadline: TimeInterval? = nil, maximumResponseSize: Int = 10 * 1_048_576
        ) {
            self.baseURL = baseURL
            self.connection = connection
            self.cache = cache
            self.retryPolicy = retryPolicy
            self.allowsInsecureHTTP = allowsInsecureHTTP
            self.maximumConcurrentRequests = maximumConcurrentRequests
            self.deadline = deadline
            self.maximumResponseSize = maximumResponseSize
        }

        /// A configuration with a store behind the cache, such as `ValkeyLookupStore`, and an
        /// `observer`; the other parameters are those of `init(baseURL:connection:cache:…)`.
        ///
        /// ```swift
        /// let configuration = IPDataClient.Configuration(cache: LookupCache(), cacheStore: store)
        /// ```
        public init(
            baseURL: URL = IPDataClient.defaultBaseURL, connection: Connection = .shared, cache: LookupCache? = nil,
            cacheStore: (any LookupCacheStore)?, retryPolicy: RetryPolicy = .default, allowsInsecureHTTP: Bool = false,
            maximumConcurrentRequests: Int = 16, deadline: TimeInterval? = nil,
            maximumResponseSize: Int = 10 * 1_048_576, observer: (any IPDataObserver)? = nil
        ) {
            self.init(
                baseURL: baseURL, connection: connection, cache: cache, retryPolicy: retryPolicy,
                allowsInsecureHTTP: allowsInsecureHTTP, maximumConcurrentRequests: maximumConcurrentRequests,
                deadline: deadline, maximumResponseSize: maximumResponseSize)
            self.cacheStore = cacheStore
            self.observer = observer
        }

        /// The configuration with every property at its default: `URLSession.shared`, no cache,
        /// the default retry policy.
        ///
        /// Declared on its own, and not left to the defaults of `init(baseURL:connection:…)`, so
        /// that `IPDataClient(apiKey: key, configuration: .init())` means this configuration:
        /// Swift prefers an initialiser that needs no default argument, and would otherwise pick
        /// `URLSessionConfiguration.init()` and the client's `URLSessionConfiguration` initialiser.
        public init() {
            self.init(baseURL: IPDataClient.defaultBaseURL)
        }
    }

    /// What carries a client's HTTP requests.
    public struct Connection: Sendable {
        enum Kind {
            case session(URLSession)
            case owned(URLSessionConfiguration)
            case transport(any IPDataTransport)
        }

        /// A box for the kind: a configuration is not `Sendable` on every platform.
        // @unchecked Sendable: an `owned` configuration is a private copy, never changed after
        // `owned(_:)` made it, and only read to create a session; the other kinds are Sendable.
        struct Box: @unchecked Sendable {
            let kind: Kind
        }

        let box: Box

        /// `URLSession.shared`, whose connection pool the whole process shares.
        ///
        /// On Linux the client cannot bound the memory of an answer through it: the session
        /// hands a body over only once it is complete, so an endless one grows until the
        /// `deadline`. Against servers you do not trust there, use `owned(_:)`.
        public static let shared = Connection(box: Box(kind: .session(.shared)))

        /// Your session, which the client uses as it is and never invalidates.
        ///
        /// On Linux, as with `shared`, an answer's memory is bounded only by the `deadline`; an
        /// `owned(_:)` session stops an answer past `maximumResponseSize` as it arrives.
        public static func session(_ session: URLSession) -> Connection {
            Connection(box: Box(kind: .session(session)))
        }

        /// A session of the client's own, made once from a copy of `configuration` and
        /// invalidated when the client is released. It has no `URLCache` (every request URL
        /// carries the key), it stops an answer past `maximumResponseSize` as it arrives, however
        /// fast the server sends, and on Linux it refuses HTTP authentication challenges, which
        /// would otherwise leave a request waiting.
        public static func owned(_ configuration: URLSessionConfiguration) -> Connection {
            // `copy()` of a URLSessionConfiguration is always a URLSessionConfiguration.
            let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
            return Connection(box: Box(kind: .owned(copy)))
        }

        /// Any transport, such as `IPDataSandbox` from the `IPDataTesting` library.
        public static func transport(_ transport: any IPDataTransport) -> Connection {
            Connection(box: Box(kind: .transport(transport)))
        }

        /// The transport this connection stands for, made new for an owned session; the
        /// requests in flight on it: at most `maximumConcurrentRequests`, and over a session that
        /// is not the client's own, at most the connections it opens a host until its answers
        /// show HTTP/2 (see `URLSessionTransport.concurrentRequests` and
        /// `ConnectionProtocolWatch`); and the deadline of a client that sets none.
        func makeTransport(
            maximumConcurrentRequests: Int
        ) -> (transport: any IPDataTransport, slots: RequestSlots, defaultDeadline: TimeInterval) {
            let wanted = max(1, maximumConcurrentRequests)
            switch box.kind {
            case .session(let session):
                let connections = max(1, session.configuration.httpMaximumConnectionsPerHost)
                let slots = RequestSlots(limit: min(wanted, connections))
                let watch =
                    wanted > connections
                    ? ConnectionProtocolWatch(slots: slots, connectionLimit: connections, multiplexedLimit: wanted)
                    : nil
                return (
                    URLSessionTransport(session: session, protocolWatch: watch), slots,
                    URLSessionTransport.defaultDeadline(for: session.configuration)
                )
            case .owned(let configuration):
                let transport = URLSessionTransport(configuration: configuration, concurrentRequests: wanted)
                return (
                    transport, RequestSlots(limit: min(wanted, transport.concurrentRequests)),
                    URLSessionTransport.defaultDeadline(for: configuration)
                )
            case .transport(let transport):
                return (transport, RequestSlots(limit: wanted), IPDataTransportLimits.ownTransport.deadline)
            }
        }
    }
}
