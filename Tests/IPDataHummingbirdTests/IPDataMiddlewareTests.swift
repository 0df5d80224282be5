#if Hummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import IPData
import IPDataHummingbird
import IPDataTestSupport
#if Observability
import IPDataObservability
import InMemoryLogging
import Logging
#endif
import NIOCore
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPDataMiddleware` in a Hummingbird app served on loopback (HummingbirdTesting's live mode, so
/// each request has a real peer: 127.0.0.1), looking its clients up with the local API server of
/// `TestServer/` (its `env` sourced; skipped without it, failed when `IPDATA_INTEGRATION_REQUIRED=1`).
@available(macOS 14, iOS 17, tvOS 17, *)
final class IPDataMiddlewareTests: XCTestCase {
    struct AppContext: IPDataRequestContext, RemoteAddressRequestContext {
        var coreContext: CoreRequestContextStorage
        var remoteAddress: SocketAddress?
        var ipData: IPDataClientInfo?

        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            remoteAddress = source.channel.remoteAddress
        }
    }

    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        environment = try localServerEnvironment()
    }

    private func client(_ mode: String = "NORMAL", path: String = "", key: String? = nil) -> IPDataClient {
        client(baseURL: environment["IPDATA_TEST_URL_\(mode)"]! + path, key: key)
    }

    private func client(baseURL: String, key: String? = nil) -> IPDataClient {
        let base = URL(string: baseURL)!
        return IPDataClient(
            apiKey: key ?? environment["IPDATA_TEST_KEY"] ?? "test-key",
            configuration: .init(baseURL: base, connection: .owned(.ephemeral), cache: LookupCache()))
    }

    /// The proxy in front of the app is this machine, which the test requests come from.
    private let resolver = try! ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"])

    /// An app whose one route describes what the middleware put in its context.
    private func app(_ middleware: IPDataMiddleware<AppContext>) -> some ApplicationProtocol {
        let router = Router(context: AppContext.self)
        router.add(middleware: middleware)
        router.get("/") { _, context -> String in
            guard let info = context.ipData else { return "no info" }
            return "\(info.address ?? "-") \(info.outcome) \(info.response?.countryCode ?? "-")"
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    private func get(
        _ app: some ApplicationProtocol, forwardedFor: String? = nil, forwarded: [String] = [],
        expect status: HTTPResponse.Status = .ok, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> String {
        try await app.test(.live) { client in
            var headers = HTTPFields()
            if let forwardedFor { headers[.init("X-Forwarded-For")!] = forwardedFor }
            if !forwarded.isEmpty { headers[values: .init("Forwarded")!] = forwarded }
            return try await client.execute(uri: "/", method: .get, headers: headers) { response in
                XCTAssertEqual(response.status, status, file: file, line: line)
                return String(buffer: response.body)
            }
        }
    }

    func testTheForwardedClientIsLookedUpAndInTheContext() async throws {
        let app = app(IPDataMiddleware(client: client(), resolver: resolver))
        let body = try await get(app, forwardedFor: "6.6.6.6, 8.8.8.8")
        XCTAssertEqual(body, "8.8.8.8 answered US", "the rightmost untrusted address, not the client's own entry")
    }

    func testAPrivateClientIsNotSent() async throws {
        let app = app(IPDataMiddleware(client: client(), resolver: resolver))
        let body = try await get(app)
        XCTAssertEqual(body, "127.0.0.1 not public -", "the peer, trusted, with no header: this machine")
    }

    func testThePolicyTurnsAClientAwayByCountry() async throws {
        let policy = IPDataPolicy(blockedCountries: ["us"])
        let app = app(IPDataMiddleware(client: client(), resolver: resolver, policy: policy))
        _ = try await get(app, forwardedFor: "8.8.8.8", expect: .forbidden)
        let custom = IPDataPolicy(rejects: { $0.asn?.asn == "AS15169" }, rejectionStatus: .unavailableForLegalReasons)
        let other = self.app(IPDataMiddleware(client: client(), resolver: resolver, policy: custom))
        _ = try await get(other, forwardedFor: "8.8.8.8", expect: .unavailableForLegalReasons)
    }

    func testPastTheBudgetTheRequestGoesOnWithoutDataAndTheAnswerFillsTheCache() async throws {
        // The slow mode answers after 1 s here; the budget is 100 ms.
        let slow = client("SLOW", path: "/delay/1")
        let app = app(IPDataMiddleware(client: slow, resolver: resolver, latencyBudget: .milliseconds(100)))
        let body = try await get(app, forwardedFor: "8.8.8.8")
        XCTAssertEqual(body, "8.8.8.8 over budget -")
        // The lookup went on: once its answer is in the cache, the next request has it at once.
        let deadline = Date().addingTimeInterval(10)
        while slow.cache?.count == 0, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        let cached = try await get(app, forwardedFor: "8.8.8.8")
        XCTAssertEqual(cached, "8.8.8.8 answered US")
    }

    /// The body of one request, and how long the app took to answer it.
    private func timedGet(
        _ app: some ApplicationProtocol, forwardedFor: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> (body: String, seconds: Double) {
        let start = ContinuousClock.now
        let body = try await get(app, forwardedFor: forwardedFor, file: file, line: line)
        let elapsed = ContinuousClock.now - start
        return (body, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// A budget of 150 ms holds against an API that answers after 3 s, one that accepts the
    /// connection and never answers, and one that refuses it: the request is answered within 1 s
    /// (far above the budget, far below the lookup's time), as over budget or failed.
    func testTheBudgetHoldsAgainstASlowASilentAndARefusingServer() async throws {
        let silent = try BrokenServer(.silent)
        defer { silent.stop() }
        let servers = [
            ("slow", environment["IPDATA_TEST_URL_SLOW"]! + "/delay/3"),
            ("silent", "https://127.0.0.1:\(silent.port)"),
            ("refusing", "https://127.0.0.1:\(try LoopbackSocket.freePort())"),
        ]
        for (name, base) in servers {
            let middleware = IPDataMiddleware<AppContext>(
                client: client(baseURL: base), resolver: resolver, latencyBudget: .milliseconds(150))
            let app = app(middleware)
            let (body, seconds) = try await timedGet(app, forwardedFor: "8.8.8.8")
            XCTAssertLessThan(seconds, 1, "\(name): the request waited for the lookup (\(body))")
            XCTAssertTrue(body == "8.8.8.8 over budget -" || body.hasPrefix("8.8.8.8 failed: "), "\(name): \(body)")
            if name != "refusing" { XCTAssertEqual(body, "8.8.8.8 over budget -", name) }
        }
    }

    /// A transport that never answers, counting the requests sent to it.
    private final class SilentTransport: IPDataTransport {
        let sent = Counter()

        func response(for request: URLRequest, limits: IPDataTransportLimits) async throws -> IPDataTransportResponse {
            sent.add()
            try await Task.sleep(for: .seconds(30))
            throw URLError(.timedOut)
        }
    }

    /// Requests counted from several tasks.
    final class Counter: @unchecked Sendable {
        // @unchecked Sendable: `value` is only touched under `lock`.
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func add() { lock.withLock { value += 1 } }
    }

    /// While an outage holds `limits.maximumPending` lookups waiting, a request with a new client
    /// starts none: 6 clients and a bound of 2 send 2 requests, and every request goes on.
    func testAnOutageDoesNotPileUpLookups() async throws {
        let transport = SilentTransport()
        let client = IPDataClient(apiKey: "test-key", configuration: .init(connection: .transport(transport)))
        let app = app(
            IPDataMiddleware(
                client: client, resolver: resolver, latencyBudget: .milliseconds(50), limits: .init(maximumPending: 2)))
        let start = ContinuousClock.now
        try await app.test(.live) { http in
            for n in 1...6 {
                var headers = HTTPFields()
                headers[.init("X-Forwarded-For")!] = "8.8.8.\(n)"
                let body = try await http.execute(uri: "/", method: .get, headers: headers) { String(buffer: $0.body) }
                XCTAssertEqual(body, "8.8.8.\(n) over budget -")
            }
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "no request waited for its lookup")
        XCTAssertEqual(transport.sent.count, 2, "the lookups past the bound were never started")
    }

    /// The API requests the local server logged since `mark` (the size of its access log then)
    /// whose path holds `text`.
    private func requestsLogged(since mark: UInt64, containing text: String) throws -> Int {
        let log = try FileHandle(forReadingFrom: URL(fileURLWithPath: environment["IPDATA_TEST_ACCESS_LOG"]!))
        defer { try? log.close() }
        try log.seek(toOffset: mark)
        let added = String(decoding: try log.readToEnd() ?? Data(), as: UTF8.self)
        return added.split(separator: "\n").filter { $0.contains(text) }.count
    }

    /// The size of the local server's access log now.
    private func accessLogSize() throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: environment["IPDATA_TEST_ACCESS_LOG"]!)
        return (attributes[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// 300 requests from one IPv6 /64, each from an address of its own, 20 at a time: as many
    /// lookups as the network's new clients a minute (30), not 300. Counted at the server.
    func testAddressRotationWithinANetworkIsNotALookupEach() async throws {
        let app = app(IPDataMiddleware(client: client(), resolver: resolver))
        let mark = try accessLogSize()
        try await app.test(.live) { http in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for batch in stride(from: 1, through: 300, by: 20) {
                    for n in batch..<batch + 20 {
                        group.addTask {
                            var headers = HTTPFields()
                            headers[.init("X-Forwarded-For")!] = "2606:4700:10:20::\(String(n, radix: 16))"
                            _ = try await http.execute(uri: "/", method: .get, headers: headers) { $0.status }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
        try await Task.sleep(for: .milliseconds(500))  // nginx logs a request a moment after its answer
        XCTAssertEqual(try requestsLogged(since: mark, containing: "2606:4700:10:20:"), 30)
    }

    /// After the API's quota 403, no request is sent for the pause, and the failure mode says
    /// what the requests get: 503 when closed, going on without data when open.
    func testAQuota403StopsTheLookupsAndTheFailureModeDecides() async throws {
        let quotaKey = environment["IPDATA_TEST_QUOTA_KEY"] ?? "quota-key"
        for mode in [IPDataMiddleware<AppContext>.FailureMode.closed, .open] {
            let app = app(
                IPDataMiddleware(
                    client: client(key: quotaKey), resolver: resolver, failureMode: mode,
                    policy: IPDataPolicy(blockedCountries: ["US"])))
            let mark = try accessLogSize()
            for n in 1...6 {
                let body = try await get(
                    app, forwardedFor: "8.8.4.\(n)", expect: mode == .closed ? .serviceUnavailable : .ok)
                if mode == .open { XCTAssertTrue(body.hasPrefix("8.8.4.\(n) failed: Forbidden: "), body) }
            }
            try await Task.sleep(for: .milliseconds(500))
            XCTAssertEqual(try requestsLogged(since: mark, containing: "/8.8.4."), 1, "one 403, then none sent")
        }
    }

    func testAFailedLookupFailsOpenOrClosed() async throws {
        let refused = client(key: "not-a-key")
        let open = app(IPDataMiddleware(client: refused, resolver: resolver))
        let body = try await get(open, forwardedFor: "8.8.8.8")
        XCTAssertTrue(body.hasPrefix("8.8.8.8 failed: "), body)
        XCTAssertFalse(body.contains("not-a-key"), "the key is redacted")
        let closed = app(IPDataMiddleware(client: refused, resolver: resolver, failureMode: .closed))
        _ = try await get(closed, forwardedFor: "8.8.8.8", expect: .serviceUnavailable)
    }

    /// A client's malformed `Forwarded` element, left of the one its proxy appended, no longer
    /// makes the client unknown: the policy judges the address the proxy wrote.
    func testAMalformedForwardedElementDoesNotSkipThePolicy() async throws {
        let forwarded = try ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"], header: .forwarded)
        let app = app(
            IPDataMiddleware(
                client: client(), resolver: forwarded, failureMode: .closed,
                policy: IPDataPolicy(blockedCountries: ["US"])))
        _ = try await get(app, forwarded: [#"for="x";for=1.1.1.1, for=8.8.8.8"#], expect: .forbidden)
        _ = try await get(app, forwarded: [#"for="1.1.1.1, for=8.8.8.8"#], expect: .forbidden)
        _ = try await get(app, forwarded: [#"for="x";for=1.1.1.1"#, "for=8.8.8.8"], expect: .forbidden)
    }

    /// The policy says what a client that cannot be known, or has no answer in time, gets.
    func testThePolicyDecidesForUnknownAndUnansweredClients() async throws {
        let forwarded = try ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"], header: .forwarded)
        let lenient = app(IPDataMiddleware(client: client(), resolver: forwarded))
        let body = try await get(lenient, forwarded: ["for=_hidden"])
        XCTAssertEqual(body, "- no address -")
        let strict = app(
            IPDataMiddleware(
                client: client(), resolver: forwarded, policy: IPDataPolicy(blocksUnknownClients: true)))
        _ = try await get(strict, forwarded: ["for=_hidden"], expect: .forbidden)
        _ = try await get(strict, forwarded: [#"for="x";for=1.1.1.1"#], expect: .forbidden)
        _ = try await get(strict, forwarded: ["for=8.8.8.8"])

        let slow = client("SLOW", path: "/delay/3")
        let unanswered = app(
            IPDataMiddleware(
                client: slow, resolver: resolver, latencyBudget: .milliseconds(100),
                policy: IPDataPolicy(blocksUnansweredClients: true, rejectionStatus: .tooManyRequests)))
        let start = ContinuousClock.now
        _ = try await get(unanswered, forwardedFor: "8.8.8.8", expect: .tooManyRequests)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1), "turned away at the budget's end")
    }

    #if Observability
    /// With the Observability trait, the client's log lines inside a request are the request's
    /// logger's: they carry Hummingbird's request id.
    func testTheClientLogsWithTheRequestsLogger() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "app") { _ in logs }
        logger.logLevel = .debug
        var configuration = IPDataClient.Configuration(
            baseURL: URL(string: environment["IPDATA_TEST_URL_NORMAL"]!)!, connection: .owned(.ephemeral))
        configuration.observer = IPDataLoggingObserver(logger: Logger(label: "unused"))
        let client = IPDataClient(apiKey: environment["IPDATA_TEST_KEY"] ?? "test-key", configuration: configuration)
        let router = Router(context: AppContext.self)
        router.add(middleware: IPDataMiddleware(client: client, resolver: resolver))
        router.get("/") { _, _ in "ok" }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        try await app.test(.live) { http in
            var headers = HTTPFields()
            headers[.init("X-Forwarded-For")!] = "8.8.8.8"
            _ = try await http.execute(uri: "/", method: .get, headers: headers) { $0.status }
        }
        let line = try XCTUnwrap(logs.entries.first { $0.message.description == "ipdata request" }, "\(logs.entries)")
        XCTAssertNotNil(line.metadata["hb.request.id"], "the request's id: \(line.metadata)")
        XCTAssertEqual(line.metadata["http.response.status_code"], "200")
    }
    #endif

    func testASpoofedHeaderFromAnUntrustedPeerIsIgnored() async throws {
        let untrusting = try ClientAddressResolver(trustedProxies: ["10.0.0.0/8"])
        let app = app(IPDataMiddleware(client: client(), resolver: untrusting))
        let body = try await get(app, forwardedFor: "8.8.8.8")
        XCTAssertEqual(body, "127.0.0.1 not public -")
    }
}
#endif
