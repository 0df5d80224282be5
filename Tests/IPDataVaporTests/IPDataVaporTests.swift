#if Vapor
import AsyncHTTPClient
import Foundation
import IPData
import IPDataTestSupport
import IPDataVapor
import NIOCore
import NIOHTTP1
import Vapor
import XCTest
#if Observability
import IPDataObservability
import InMemoryLogging
import Logging
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `app.ipdata`, `req.ipdata` and `IPDataVaporMiddleware` in a Vapor app served over HTTP on
/// loopback (each request has a real peer, 127.0.0.1), looking its clients up with the local API
/// server of `TestServer/` (its `env` sourced; skipped without it, failed when
/// `IPDATA_INTEGRATION_REQUIRED=1`).
final class IPDataVaporTests: XCTestCase {
    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        environment = try localServerEnvironment()
    }

    private var key: String { environment["IPDATA_TEST_KEY"] ?? "test-key" }

    /// The local server's address of `mode`, with `path` after it.
    private func baseURL(_ mode: String = "NORMAL", path: String = "") -> URL {
        URL(string: environment["IPDATA_TEST_URL_\(mode)"]! + path)!
    }

    /// The proxy in front of the app is this machine, which the test requests come from.
    private let resolver = try! ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"])

    /// A running app whose `app.ipdata` talks to `baseURL` (over its own HTTPClient, as
    /// `use(apiKey:)` makes it), with `app.ipdata.middleware(resolver:…)` when a resolver is
    /// given, and a route that describes what the middleware learnt; `body` gets the app and its port. The app is shut
    /// down at the end.
    private func withApp<T>(
        baseURL: URL? = nil, key: String? = nil, cache: LookupCache? = LookupCache(), logger: Logger? = nil,
        resolver: ClientAddressResolver? = nil, latencyBudget: Duration = .milliseconds(250),
        failureMode: IPDataFailureMode = .open, policy: IPDataPolicy? = nil,
        _ body: (Application, Int) async throws -> T
    ) async throws -> T {
        let app: Application
        if let logger {
            app = try await Application.make(.testing, logger: logger)
        } else {
            app = try await Application.make(.testing)
        }
        do {
            app.ipdata.use(
                apiKey: key ?? self.key, configuration: .init(baseURL: baseURL ?? self.baseURL(), cache: cache))
            if let resolver {
                app.middleware.use(
                    app.ipdata.middleware(
                        resolver: resolver, latencyBudget: latencyBudget, failureMode: failureMode, policy: policy))
            }
            app.get { req -> String in
                guard let info = req.ipdata.clientInfo else { return "no info" }
                return "\(info.address ?? "-") \(info.outcome) \(info.response?.countryCode ?? "-")"
            }
            app.get("lookup", ":ip") { req async throws -> String in
                try await req.ipdata.lookup(req.parameters.get("ip")!).countryCode ?? "-"
            }
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
            let result = try await body(app, port)
            await app.server.shutdown()
            try await app.asyncShutdown()
            return result
        } catch {
            await app.server.shutdown()
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// GET `path` on the app at `port` over HTTP, with the headers given; its status and body.
    private func get(
        _ port: Int, _ path: String = "/", forwardedFor: String? = nil, forwarded: [String] = []
    ) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        if let forwardedFor { request.headers.add(name: "X-Forwarded-For", value: forwardedFor) }
        for value in forwarded { request.headers.add(name: "Forwarded", value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    /// The seconds `operation` took.
    private func seconds(_ operation: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await operation()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    // MARK: app.ipdata and req.ipdata

    func testARouteLooksUpThroughReqIPData() async throws {
        try await withApp { _, port in
            let (status, body) = try await get(port, "/lookup/8.8.8.8")
            XCTAssertEqual(status, 200)
            XCTAssertEqual(body, "US")
        }
    }

    func testAppIPDataIsOneClientOverAnHTTPClientOfItsOwn() async throws {
        try await withApp { app, _ in
            XCTAssertTrue(app.ipdata.isConfigured)
            XCTAssertTrue(app.ipdata.client === app.ipdata.client, "configured once, the same client")
            let answer = try await app.ipdata.client.lookup("1.1.1.1")
            XCTAssertEqual(answer.countryCode, "AU")
        }
    }

    // MARK: The middleware

    func testTheForwardedClientIsLookedUpAndKeptInTheRequest() async throws {
        try await withApp(resolver: self.resolver) { _, port in
            let rightmost = try await get(port, forwardedFor: "6.6.6.6, 8.8.8.8")
            XCTAssertEqual(rightmost.body, "8.8.8.8 answered US", "the rightmost untrusted entry, not the client's own")
            let own = try await get(port)
            XCTAssertEqual(own.body, "127.0.0.1 not public -", "the trusted peer, with no header: not sent")
            let privateClient = try await get(port, forwardedFor: "10.1.2.3")
            XCTAssertEqual(privateClient.body, "10.1.2.3 not public -")
        }
    }

    func testASpoofedHeaderFromAnUntrustedPeerIsIgnored() async throws {
        let untrusting = try ClientAddressResolver(trustedProxies: ["10.0.0.0/8"])
        try await withApp(resolver: untrusting) { _, port in
            let (_, body) = try await get(port, forwardedFor: "8.8.8.8")
            XCTAssertEqual(body, "127.0.0.1 not public -", "Vapor's peerAddress would have believed it")
        }
    }

    func testAMalformedForwardedElementDoesNotSkipThePolicy() async throws {
        let forwarded = try ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"], header: .forwarded)
        let policy = IPDataPolicy(blockedCountries: ["US"])
        try await withApp(resolver: forwarded, policy: policy) { _, port in
            let turnedAway = try await get(port, forwarded: [#"for="x";for=1.1.1.1, for=8.8.8.8"#])
            XCTAssertEqual(turnedAway.status, 403)
            let hidden = try await get(port, forwarded: ["for=_hidden"])
            XCTAssertEqual(hidden.body, "- no address -")
        }
    }

    func testThePolicyTurnsClientsAway() async throws {
        let byCountry = IPDataPolicy(blockedCountries: ["us"])
        try await withApp(resolver: self.resolver, policy: byCountry) { _, port in
            let us = try await get(port, forwardedFor: "8.8.8.8")
            XCTAssertEqual(us.status, 403)
            let australia = try await get(port, forwardedFor: "1.1.1.1")
            XCTAssertEqual(australia.status, 200)
            XCTAssertEqual(australia.body, "1.1.1.1 answered AU")
        }
        let own = IPDataPolicy(rejects: { $0.asn?.asn == "AS15169" }, rejectionStatusCode: 451)
        try await withApp(resolver: self.resolver, policy: own) { _, port in
            let (status, _) = try await get(port, forwardedFor: "8.8.8.8")
            XCTAssertEqual(status, 451)
        }
        let unknown = IPDataPolicy(blocksUnknownClients: true)
        let forwarded = try ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"], header: .forwarded)
        try await withApp(resolver: forwarded, policy: unknown) { _, port in
            let hidden = try await get(port, forwarded: ["for=_hidden"])
            XCTAssertEqual(hidden.status, 403)
            let known = try await get(port, forwarded: ["for=8.8.8.8"])
            XCTAssertEqual(known.status, 200)
        }
    }

    func testAFailedLookupFailsOpenOrClosedWithoutTheKey() async throws {
        try await withApp(key: "not-a-key", resolver: self.resolver) { _, port in
            let (status, body) = try await get(port, forwardedFor: "8.8.8.8")
            XCTAssertEqual(status, 200)
            XCTAssertTrue(body.hasPrefix("8.8.8.8 failed: Unauthorized"), body)
            XCTAssertFalse(body.contains("not-a-key"), "the key is redacted")
        }
        try await withApp(
            key: "not-a-key", resolver: self.resolver, failureMode: .closed
        ) { _, port in
            let (status, _) = try await get(port, forwardedFor: "8.8.8.8")
            XCTAssertEqual(status, 503)
        }
    }

    /// A budget of 150 ms holds against an API that answers after 3 s, one that accepts the
    /// connection and never answers, and one that refuses it: the request is answered within 1 s
    /// (far above the budget, far below the lookup's time). (The silent server's app takes 10 s
    /// to shut down: AsyncHTTPClient ends a connection attempt only at its connect timeout.)
    func testTheBudgetHoldsAgainstASlowASilentAndARefusingServer() async throws {
        let silent = try BrokenServer(.silent)
        defer { silent.stop() }
        let servers = [
            ("slow", baseURL("SLOW", path: "/delay/3")),
            ("silent", URL(string: "https://127.0.0.1:\(silent.port)")!),
            ("refusing", URL(string: "https://127.0.0.1:\(try LoopbackSocket.freePort())")!),
        ]
        for (name, base) in servers {
            try await withApp(
                baseURL: base,
                resolver: self.resolver, latencyBudget: .milliseconds(150)
            ) { _, port in
                var body = ""
                let elapsed = try await seconds { body = try await get(port, forwardedFor: "8.8.8.8").body }
                XCTAssertLessThan(elapsed, 1, "\(name): the request waited for the lookup (\(body))")
                if name == "refusing" {
                    XCTAssertTrue(body == "8.8.8.8 over budget -" || body.hasPrefix("8.8.8.8 failed: "), body)
                } else {
                    XCTAssertEqual(body, "8.8.8.8 over budget -", name)
                }
            }
        }
    }

    func testPastTheBudgetTheAnswerFillsTheCacheForTheNextRequest() async throws {
        let cache = LookupCache()
        try await withApp(
            baseURL: baseURL("SLOW", path: "/delay/1"), cache: cache,
            resolver: self.resolver, latencyBudget: .milliseconds(100)
        ) { _, port in
            let first = try await get(port, forwardedFor: "8.8.8.8")
            XCTAssertEqual(first.body, "8.8.8.8 over budget -")
            let deadline = ContinuousClock.now + .seconds(10)
            while cache.count == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let second = try await get(port, forwardedFor: "8.8.8.8")
            XCTAssertEqual(second.body, "8.8.8.8 answered US")
        }
    }

    // MARK: Shutdown

    /// A transport that never answers, and counts the requests in flight in it.
    private final class SilentTransport: IPDataTransport, @unchecked Sendable {
        // @unchecked Sendable: `started` and `inFlight` are only touched under `lock`.
        private let lock = NSLock()
        private var started = 0
        private var inFlight = 0
        var counts: (started: Int, inFlight: Int) { lock.withLock { (started, inFlight) } }

        func response(for request: URLRequest, limits: IPDataTransportLimits) async throws -> IPDataTransportResponse {
            lock.withLock {
                started += 1
                inFlight += 1
            }
            defer { lock.withLock { inFlight -= 1 } }
            try await Task.sleep(for: .seconds(60))
            throw URLError(.timedOut)
        }
    }

    /// Lookups left pending past their requests' budget end when the application shuts down:
    /// none is still in flight afterwards, and the shutdown does not wait for the API.
    func testShutdownCancelsThePendingLookups() async throws {
        let transport = SilentTransport()
        let app = try await Application.make(.testing)
        app.ipdata.use(IPDataClient(apiKey: key, configuration: .init(connection: .transport(transport))))
        app.middleware.use(app.ipdata.middleware(resolver: resolver, latencyBudget: .milliseconds(50)))
        app.get { _ in "ok" }
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
        for n in 1...5 {
            let (_, body) = try await get(port, forwardedFor: "8.8.8.\(n)")
            XCTAssertEqual(body, "ok")
        }
        XCTAssertEqual(transport.counts.started, 5)
        XCTAssertEqual(transport.counts.inFlight, 5, "the lookups went on past the budget")
        let elapsed = try await seconds {
            await app.server.shutdown()
            try await app.asyncShutdown()
        }
        XCTAssertEqual(transport.counts.inFlight, 0, "a lookup outlived the application")
        XCTAssertLessThan(elapsed, 5, "the shutdown waited for the silent API")
    }

    /// The HTTPClient that `use(apiKey:)` made is shut down with the application: a lookup after
    /// it fails at once instead of opening a connection.
    func testTheOwnHTTPClientIsShutDownWithTheApplication() async throws {
        let app = try await Application.make(.testing)
        app.ipdata.use(apiKey: key, configuration: .init(baseURL: baseURL()))
        let client = app.ipdata.client
        let answer = try await client.lookup("8.8.8.8")
        XCTAssertEqual(answer.countryCode, "US")
        try await app.asyncShutdown()
        do {
            _ = try await client.lookup("1.1.1.1")
            XCTFail("a lookup went through after the application shut down")
        } catch let error as IPDataError {
            guard case .networkError = error else { return XCTFail("\(error)") }
        }
    }

    #if Observability
    /// With the Observability trait, the client's log lines inside a request are the request's
    /// logger's: they carry Vapor's request id, for the middleware's lookup and a route's.
    func testTheClientLogsWithTheRequestsLogger() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "app") { _ in logs }
        logger.logLevel = .debug
        var configuration = IPDataClient.Configuration(baseURL: baseURL())
        configuration.observer = IPDataLoggingObserver(logger: Logger(label: "unused"))
        let app = try await Application.make(.testing, logger: logger)
        app.logger.logLevel = .debug
        app.ipdata.use(apiKey: key, configuration: configuration)
        app.middleware.use(app.ipdata.middleware(resolver: resolver))
        app.get("lookup", ":ip") { req async throws -> String in
            try await req.ipdata.lookup(req.parameters.get("ip")!).countryCode ?? "-"
        }
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
        let (_, body) = try await get(port, "/lookup/1.1.1.1", forwardedFor: "8.8.8.8")
        XCTAssertEqual(body, "AU")
        await app.server.shutdown()
        try await app.asyncShutdown()
        let lines = logs.entries.filter { $0.message.description == "ipdata request" }
        XCTAssertEqual(lines.count, 2, "the middleware's lookup and the route's: \(logs.entries)")
        let ids = Set(lines.compactMap { $0.metadata["request-id"]?.description })
        XCTAssertEqual(ids.count, 1, "both with the request's id: \(lines.map(\.metadata))")
        XCTAssertFalse("\(logs.entries)".contains(key), "no line holds the key")
    }
    #endif
}
#endif
