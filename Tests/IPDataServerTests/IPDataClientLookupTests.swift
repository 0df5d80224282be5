import Foundation
import IPData
import IPDataServer
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPDataClientLookup` without a framework or a server: a transport of the test's own answers
/// each lookup after `delay`, or never.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class IPDataClientLookupTests: XCTestCase {
    /// Answers every lookup with a US address after `delay` seconds; counts the requests it holds.
    private final class DelayedTransport: IPDataTransport, @unchecked Sendable {
        // @unchecked Sendable: `held` is only touched under `lock`; `delay` never changes.
        private let lock = NSLock()
        private var held = 0
        let delay: Double
        var inFlight: Int { lock.withLock { held } }

        init(delay: Double) { self.delay = delay }

        func response(for request: URLRequest, limits: IPDataTransportLimits) async throws -> IPDataTransportResponse {
            lock.withLock { held += 1 }
            defer { lock.withLock { held -= 1 } }
            try await Task.sleep(for: .seconds(delay))
            let body = Data(#"{"ip":"8.8.8.8","country_code":"US","threat":{"is_tor":true}}"#.utf8)
            return IPDataTransportResponse(
                statusCode: 200, headers: [(name: "Content-Type", value: "application/json")], body: body)
        }
    }

    private let resolver = try! ClientAddressResolver(trustedProxies: ["10.0.0.0/8"])

    private func lookup(
        delay: Double, budget: Duration = .seconds(5), policy: IPDataPolicy? = nil
    ) -> (IPDataClientLookup, DelayedTransport) {
        let transport = DelayedTransport(delay: delay)
        let client = IPDataClient(apiKey: "test-key", configuration: .init(connection: .transport(transport)))
        return (
            IPDataClientLookup(client: client, resolver: resolver, latencyBudget: budget, policy: policy), transport
        )
    }

    private func forwarded(_ address: String) -> (String) -> [String] {
        { $0 == "x-forwarded-for" ? [address] : [] }
    }

    func testTheForwardedClientIsAnsweredAndJudged() async throws {
        let (lookup, _) = lookup(delay: 0, policy: IPDataPolicy(blocksTor: true, rejectionStatusCode: 451))
        let info = await lookup.clientInfo(peer: "10.0.0.2", values: forwarded("8.8.8.8"))
        XCTAssertEqual(info.address, "8.8.8.8")
        XCTAssertEqual(info.response?.countryCode, "US")
        XCTAssertEqual(lookup.rejectionStatusCode(for: info), 451, "a Tor exit, turned away")
        let local = await lookup.clientInfo(peer: "10.0.0.2", values: forwarded("192.168.1.4"))
        guard case .notPublic = local.outcome else { return XCTFail("\(local.outcome)") }
        XCTAssertNil(lookup.rejectionStatusCode(for: local), "an address with no answer goes on")
        XCTAssertEqual("\(local.outcome)", "not public")
        XCTAssertEqual("\(IPDataClientInfo.Outcome.failed(.unauthorized("no")))", "failed: Unauthorized: no")
    }

    func testAFailureIs503OnlyWhenClosed() {
        let client = IPDataClient(apiKey: "test-key")
        let failed = IPDataClientInfo(address: "8.8.8.8", response: nil, outcome: .failed(.unauthorized("no")))
        let open = IPDataClientLookup(client: client, resolver: resolver)
        let closed = IPDataClientLookup(client: client, resolver: resolver, failureMode: .closed)
        XCTAssertNil(open.rejectionStatusCode(for: failed))
        XCTAssertEqual(closed.rejectionStatusCode(for: failed), 503)
    }

    /// Past the budget the call returns at once, the lookup goes on, and
    /// `cancelPendingLookups()` ends it: nothing is left in the transport.
    func testCancelPendingLookupsEndsWhatTheBudgetLeftRunning() async throws {
        let (lookup, transport) = lookup(delay: 60, budget: .milliseconds(50))
        let start = ContinuousClock.now
        let info = await lookup.clientInfo(peer: "10.0.0.2", values: forwarded("8.8.8.8"))
        guard case .overBudget = info.outcome else { return XCTFail("\(info.outcome)") }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
        XCTAssertEqual(transport.inFlight, 1, "the lookup went on past the budget")
        await lookup.cancelPendingLookups()
        XCTAssertEqual(transport.inFlight, 0, "a lookup outlived cancelPendingLookups()")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
    }
}
