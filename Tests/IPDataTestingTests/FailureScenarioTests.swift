import Foundation
import IPData
import IPDataTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sandbox's slow, refusing and failing answers, for an app's tests of its waiting,
/// retrying and offline paths; and the device's own address.
final class FailureScenarioTests: XCTestCase {
    private func error(_ body: () async throws -> IPResponse) async -> IPDataError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? IPDataError
        }
    }

    func testASlowAnswerComesLateAndACancelledOneAtOnce() async throws {
        let sandbox = IPDataSandbox()
        sandbox.register(.slowAnswers(seconds: 0.3))
        let start = ContinuousClock.now
        let info = try await sandbox.client().lookup("8.8.8.8")
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(300))

        sandbox.register(.slowAnswers(seconds: 30))
        let lookup = Task { try await sandbox.client().lookup("8.8.8.8") }
        try await Task.sleep(nanoseconds: 50_000_000)
        let cancelled = ContinuousClock.now
        lookup.cancel()
        let failure = await error { try await lookup.value }
        XCTAssertEqual(failure?.isCancellation, true, "\(String(describing: failure))")
        XCTAssertLessThan(ContinuousClock.now - cancelled, .seconds(1))
    }

    func testA429CarriesItsRetryAfter() async throws {
        final class Outcomes: IPDataObserver, @unchecked Sendable {
            // @unchecked Sendable: `retryAfter` is only touched under `lock`.
            private let lock = NSLock()
            private var values: [String?] = []
            var retryAfter: [String?] { lock.withLock { values } }
            func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
                lock.withLock { values.append(outcome.retryAfter) }
            }
        }
        let sandbox = IPDataSandbox(failing: .rateLimited(retryAfter: 30))
        let outcomes = Outcomes()
        var configuration = IPDataClient.Configuration(connection: .transport(sandbox))
        configuration.observer = outcomes
        let failure = await error {
            try await IPDataClient(apiKey: "k", configuration: configuration).lookup("8.8.8.8")
        }
        guard case .unexpectedStatus(429, _)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(outcomes.retryAfter, ["30"])
        XCTAssertEqual(failure?.isRateLimited, true)
        XCTAssertEqual(failure?.retryAfter, 30, "the error carries the wait")
    }

    func testAServerErrorOnTheFirstRequestIsRetried() async throws {
        let sandbox = IPDataSandbox(failing: IPDataScenario.serverError(status: 503).onRequests(1))
        var configuration = IPDataClient.Configuration(connection: .transport(sandbox))
        configuration.retryPolicy = RetryPolicy(
            maximumAttempts: 2, initialDelay: 0.01, maximumDelay: 0.01, timeBudget: 5)
        let info = try await IPDataClient(apiKey: "k", configuration: configuration).lookup("8.8.8.8")
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertEqual(sandbox.requests.count, 2, "503, then the answer")

        let always = IPDataSandbox(failing: .serverError())
        let failure = await error { try await always.client().lookup("8.8.8.8") }
        guard case .unexpectedStatus(503, _)? = failure else { return XCTFail("\(String(describing: failure))") }
    }

    func testATimeoutAndADeadConnection() async throws {
        for (scenario, code) in [
            (IPDataScenario.timeout, URLError.Code.timedOut), (.deadConnection, .networkConnectionLost),
        ] {
            let failure = await error { try await IPDataSandbox(failing: scenario).client().lookup("8.8.8.8") }
            guard case .networkError(let underlying as URLError)? = failure else {
                return XCTFail("\(scenario): \(String(describing: failure))")
            }
            XCTAssertEqual(underlying.code, code, "\(scenario)")
        }
    }

    func testOnlyTheNthRequestFails() async throws {
        let sandbox = IPDataSandbox(failing: IPDataScenario.timeout.onRequests(2, 3))
        let client = sandbox.client()
        var outcomes: [Bool] = []
        for _ in 1...4 { outcomes.append(await error { try await client.lookup("8.8.8.8") } == nil) }
        XCTAssertEqual(outcomes, [true, false, false, true])
    }

    func testTheDevicesOwnAddress() async throws {
        let sandbox = IPDataSandbox()
        let residential = try await sandbox.client().lookup()
        XCTAssertEqual(residential.ip, IPDataScenario.residential.ip)
        sandbox.ownAddress = IPDataScenario.euIPv6.ip!
        let own = try await sandbox.client().lookup()
        XCTAssertEqual(own.ip, IPDataScenario.euIPv6.ip)
        XCTAssertEqual(own.isEU, true)
    }

    func testAScenarioDescribesItselfInOneShortLine() {
        let all =
            IPDataScenario.addresses + IPDataScenario.errors + [
                .slowAnswers(seconds: 2), .rateLimited(retryAfter: 30), .serverError(), .timeout, .deadConnection,
                IPDataScenario.serverError().onRequests(1),
            ]
        for scenario in all {
            XCTAssertEqual("\(scenario)", scenario.name)
            XCTAssertLessThanOrEqual("\(scenario)".count, 40, "\(scenario)")
        }
        XCTAssertEqual("\(IPDataScenario.rateLimited(retryAfter: 30))", "429, retry after 30 s")
        XCTAssertEqual("\(IPDataScenario.serverError().onRequests(1))", "HTTP 503, request 1")
    }
}
