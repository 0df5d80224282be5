import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Configuration.observer`: what a client tells an `IPDataObserver` of each call, request, wait,
/// cache read and shared lookup, each event carrying its call, and none carrying the key.
final class ObserverTests: MockedClientTestCase {
    /// Every event, in the order the observer heard them, with the task-local mark of the task
    /// that told it.
    private final class RecordingObserver: IPDataObserver {
        enum Event {
            case started(IPDataCall)
            case ended(IPDataCall, IPDataError?, TimeInterval)
            case requestStarted(IPDataRequest)
            case requestEnded(IPDataRequest, IPDataRequestOutcome)
            case wait(IPDataRetryWait)
            case cache(IPDataCacheRead)
            case coalesced(IPDataCall)

            /// The call the event belongs to.
            var call: IPDataCall {
                switch self {
                case .started(let call), .ended(let call, _, _), .coalesced(let call): return call
                case .requestStarted(let request), .requestEnded(let request, _): return request.call
                case .wait(let wait): return wait.call
                case .cache(let read): return read.call
                }
            }
        }

        @TaskLocal static var mark: String?

        private let recorded = Locked<[(event: Event, mark: String?)]>([])
        var events: [Event] { recorded.withLock { $0.map(\.event) } }
        var marks: [String?] { recorded.withLock { $0.map(\.mark) } }

        private func record(_ event: Event) {
            let mark = Self.mark
            recorded.withLock { $0.append((event, mark)) }
        }

        func callStarted(_ call: IPDataCall) { record(.started(call)) }
        func callEnded(_ call: IPDataCall, error: IPDataError?, duration: TimeInterval) {
            record(.ended(call, error, duration))
        }
        func requestStarted(_ request: IPDataRequest) { record(.requestStarted(request)) }
        func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
            record(.requestEnded(request, outcome))
        }
        func retryWaitStarted(_ wait: IPDataRetryWait) { record(.wait(wait)) }
        func cacheRead(_ read: IPDataCacheRead) { record(.cache(read)) }
        func callCoalesced(_ call: IPDataCall) { record(.coalesced(call)) }

        var requests: [IPDataRequest] {
            events.compactMap { if case .requestStarted(let request) = $0 { return request } else { return nil } }
        }
        var outcomes: [IPDataRequestOutcome] {
            events.compactMap { if case .requestEnded(_, let outcome) = $0 { return outcome } else { return nil } }
        }
        var waits: [IPDataRetryWait] {
            events.compactMap { if case .wait(let wait) = $0 { return wait } else { return nil } }
        }
        var reads: [IPDataCacheRead] {
            events.compactMap { if case .cache(let read) = $0 { return read } else { return nil } }
        }
    }

    private let observer = RecordingObserver()

    private func configuration(retryPolicy: RetryPolicy = .default) -> IPDataClient.Configuration {
        var configuration = IPDataClient.Configuration(
            connection: .session(MockURLProtocol.makeSession()), retryPolicy: retryPolicy)
        configuration.observer = observer
        return configuration
    }

    private func observedClient(retryPolicy: RetryPolicy = .default) -> IPDataClient {
        IPDataClient(apiKey: Self.apiKey, configuration: configuration(retryPolicy: retryPolicy))
    }

    /// Nothing an observer is told carries the key, in any form.
    private func assertNoKey(file: StaticString = #filePath, line: UInt = #line) {
        let everything = String(reflecting: observer.events)
        XCTAssertFalse(everything.contains(Self.apiKey), everything, file: file, line: line)
    }

    func testACallStartsAndEndsWithItsEndpointItsAddressesAndOneIdentifier() async throws {
        answerLikeTheAPI()
        _ = try await observedClient().bulkLookup(["8.8.8.8", "1.1.1.1", "10.0.0.1"])
        let events = observer.events
        guard case .started(let call)? = events.first, case .ended(let ended, let error, let duration)? = events.last
        else { return XCTFail("\(events)") }
        XCTAssertEqual(call.endpoint, .bulk)
        XCTAssertEqual(call.endpoint.name, "bulk")
        XCTAssertEqual(call.addressCount, 3)
        XCTAssertEqual(ended, call)
        XCTAssertNil(error)
        XCTAssertGreaterThanOrEqual(duration, 0)
        XCTAssertEqual(Set(events.map(\.call.id)), [call.id], "every event of the call carries it")

        // The next call is another: a new identifier, and a call that fails before any request
        // ends with its error.
        let refused = await capturedError { try await self.observedClient().lookup("not an address") }
        let second = observer.events.dropFirst(events.count)
        guard case .started(let next)? = second.first, case .ended(_, let failure?, _)? = second.last else {
            return XCTFail("\(second)")
        }
        XCTAssertGreaterThan(next.id, call.id)
        XCTAssertEqual(next.endpoint, .address)
        XCTAssertEqual(next.addressCount, 1)
        XCTAssertEqual(failure.description, refused?.description)
        XCTAssertEqual(second.count, 2, "no request: \(second)")
    }

    func testARequestIsToldAsItStartsAndEndsWithItsStatusAndBytesAndNoKey() async throws {
        let body = Data(#"{"message": "AS… was not found."}"#.utf8)
        MockURLProtocol.respond(status: 404, body: body)
        _ = await capturedError { try await self.observedClient().lookupField("8.8.8.8", field: "asn") }
        let request = try XCTUnwrap(observer.requests.first)
        XCTAssertEqual(observer.requests.count, 1)
        XCTAssertEqual(request.call.endpoint, .field)
        XCTAssertEqual(request.attempt, 1)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.url.absoluteString, "https://api.ipdata.co/8.8.8.8/asn?api-key=REDACTED")
        XCTAssertEqual(request.addressCount, 1)
        let outcome = try XCTUnwrap(observer.outcomes.first)
        XCTAssertEqual(outcome.statusCode, 404)
        XCTAssertNil(outcome.failure)
        XCTAssertEqual(outcome.bytesReceived, body.count)
        XCTAssertGreaterThanOrEqual(outcome.duration, 0)
        XCTAssertTrue(outcome.mayHaveReachedTheServer)
        assertNoKey()
    }

    func testEachAttemptIsARequestAndAFailureCarriesItsErrorWithoutTheKey() async throws {
        let body = try Fixture.data(Fixture.bulkPair)
        MockURLProtocol.stub { _, attempt in
            attempt == 1
                ? .failure(URLError(.networkConnectionLost)) : .http(status: 200, body: body, headers: [:])
        }
        var policy = RetryPolicy(maximumAttempts: 2, initialDelay: 0)
        policy.bulkResends = .asLookups
        _ = try await observedClient(retryPolicy: policy).bulkLookup(["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(observer.requests.map(\.method), ["POST", "POST"])
        XCTAssertEqual(observer.requests.map(\.attempt), [1, 2])
        XCTAssertEqual(observer.requests.map(\.addressCount), [2, 2])
        XCTAssertEqual(observer.outcomes.map(\.statusCode), [nil, 200])
        XCTAssertEqual(observer.outcomes.map(\.bytesReceived), [0, body.count])
        XCTAssertEqual(observer.outcomes.map(\.mayHaveReachedTheServer), [true, true])
        guard case .networkError(let error as URLError)? = observer.outcomes.first?.failure else {
            return XCTFail("expected a network error, got \(String(describing: observer.outcomes.first?.failure))")
        }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertFalse(String(reflecting: error).contains(Self.apiKey))
        assertNoKey()
    }

    func testEachRetryWaitIsToldWithItsSecondsAndWhy() async throws {
        MockURLProtocol.stub { _, attempt in
            switch attempt {
            case 1: return .failure(URLError(.cannotConnectToHost))
            case 2: return .http(status: 429, body: Data("Too Many Requests".utf8), headers: ["Retry-After": "0"])
            default: return .http(status: 200, body: Data(#"{"ip":"8.8.8.8"}"#.utf8), headers: [:])
            }
        }
        _ = try await observedClient(retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 0)).lookup("8.8.8.8")
        XCTAssertEqual(observer.outcomes.map(\.statusCode), [nil, 429, 200])
        XCTAssertEqual(observer.outcomes.map(\.retryAfter), [nil, "0", nil])
        XCTAssertEqual(observer.outcomes.map(\.mayHaveReachedTheServer), [false, true, true])
        let waits = observer.waits
        XCTAssertEqual(waits.map(\.attempt), [2, 3], "each wait names the attempt that follows it")
        XCTAssertEqual(waits.map(\.seconds), [0, 0])
        guard waits.count == 2, case .failed(.networkError(let error as URLError)) = waits[0].reason,
            case .answered(statusCode: 429) = waits[1].reason
        else { return XCTFail("\(waits)") }
        XCTAssertEqual(error.code, .cannotConnectToHost)
        // Each wait comes between the request it follows and the one it precedes.
        let order = observer.events.compactMap { event -> String? in
            switch event {
            case .requestStarted(let request): return "request \(request.attempt)"
            case .wait(let wait): return "wait \(wait.attempt)"
            default: return nil
            }
        }
        XCTAssertEqual(order, ["request 1", "wait 2", "request 2", "wait 3", "request 3"])
        assertNoKey()
    }

    func testTheHoldAfterA429IsAWaitOfTheNextCall() async throws {
        MockURLProtocol.stub { _, attempt in
            attempt == 1
                ? .http(status: 429, body: Data(), headers: ["Retry-After": "3"])
                : .http(status: 200, body: Data(#"{"ip":"1.1.1.1"}"#.utf8), headers: [:])
        }
        let waited = Locked<[TimeInterval]>([])
        let clock = RetryClock(
            now: { waited.withLock { $0.reduce(0, +) } }, sleep: { seconds in waited.withLock { $0.append(seconds) } },
            random: { $0.upperBound })
        let client = IPDataClient(
            apiKey: Self.apiKey, configuration: configuration(retryPolicy: RetryPolicy(maximumAttempts: 1)),
            clock: clock)
        _ = await capturedError { try await client.lookup("8.8.8.8") }
        XCTAssertEqual(observer.waits.count, 0, "the refused call did not retry")
        _ = try await client.lookup("1.1.1.1")
        let wait = try XCTUnwrap(observer.waits.first)
        XCTAssertEqual(observer.waits.count, 1)
        XCTAssertEqual(wait.seconds, 3)
        XCTAssertEqual(wait.attempt, 1)
        guard case .rateLimited = wait.reason else { return XCTFail("\(wait.reason)") }
        XCTAssertEqual(wait.call.id, observer.requests.last?.call.id, "the second call's wait")
        XCTAssertEqual(waited.withLock { $0 }, [3])
    }

    func testACacheHitAndMissAreToldForEachTier() async throws {
        answerLikeTheAPI()
        var configuration = configuration()
        let store = LookupCache()
        configuration.cache = LookupCache()
        configuration.cacheStore = store
        let client = IPDataClient(apiKey: Self.apiKey, configuration: configuration)
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(observer.reads.map(\.tier), [.memory, .store])
        XCTAssertEqual(observer.reads.map(\.hits), [0, 0])
        XCTAssertEqual(observer.reads.map(\.misses), [1, 1])
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(observer.reads.dropFirst(2).map(\.tier), [.memory])
        XCTAssertEqual(observer.reads.dropFirst(2).map(\.hits), [1])
        XCTAssertEqual(observer.requests.count, 1, "the second call was answered by the cache")

        // A bulk lookup counts its addresses: one in memory, one in the store alone, one in neither.
        _ = try await client.bulkLookup(["8.8.8.8", "1.1.1.1", "9.9.9.9"])
        store.store(
            LookupCacheEntry(response: try IPResponse(jsonData: Data(#"{"ip":"4.4.4.4"}"#.utf8)), json: nil),
            for: LookupCacheKey(address: "4.4.4.4", fields: nil)!)
        _ = try await client.bulkLookup(["8.8.8.8", "4.4.4.4", "5.5.5.5"])
        let last = observer.reads.suffix(2)
        XCTAssertEqual(last.map(\.tier), [.memory, .store])
        XCTAssertEqual(last.map(\.hits), [1, 1])
        XCTAssertEqual(last.map(\.misses), [2, 1])
        XCTAssertEqual(observer.requests.last?.addressCount, 1, "only 5.5.5.5 was sent")
        XCTAssertEqual(observer.requests.last?.call.addressCount, 3)
    }

    func testACallThatSharesAnothersRequestIsToldInItsOwnTask() async throws {
        let transport = StubTransport(otherwise: .status(200, body: #"{"ip":"8.8.8.8"}"#), holding: true)
        var configuration = IPDataClient.Configuration(connection: .transport(transport))
        configuration.observer = observer
        let client = IPDataClient(apiKey: Self.apiKey, configuration: configuration)
        let leader = Task {
            try await RecordingObserver.$mark.withValue("leader") { try await client.lookup("8.8.8.8") }
        }
        try await waitUntil { transport.held == 1 }
        let follower = Task {
            try await RecordingObserver.$mark.withValue("follower") { try await client.lookup("8.8.8.8") }
        }
        try await waitUntil { client.coalescer.waiterCount(forKey: "8.8.8.8#") == 1 }
        transport.releaseHeld()
        _ = try await (leader.value, follower.value)

        XCTAssertEqual(transport.count, 1)
        let events = observer.events
        let calls = Dictionary(grouping: zip(events, observer.marks), by: { $0.1 ?? "none" })
        let leaderCalls = Set((calls["leader"] ?? []).map(\.0.call.id))
        let followerEvents = (calls["follower"] ?? []).map(\.0)
        XCTAssertEqual(leaderCalls.count, 1)
        XCTAssertEqual(Set(followerEvents.map(\.call.id)).count, 1)
        XCTAssertNotEqual(leaderCalls, Set(followerEvents.map(\.call.id)))
        XCTAssertEqual(calls.keys.sorted(), ["follower", "leader"], "every event in the task of its call")
        XCTAssertEqual(followerEvents.count, 3, "\(followerEvents)")
        guard case .started(let call) = followerEvents[0], case .coalesced(let shared) = followerEvents[1],
            case .ended(_, nil, _) = followerEvents[2]
        else { return XCTFail("\(followerEvents)") }
        XCTAssertEqual(call, shared)
        XCTAssertEqual(observer.requests.count, 1)
        XCTAssertEqual(observer.requests.first.map { leaderCalls.contains($0.call.id) }, true)
    }

    /// Waits, a few milliseconds at a time, until `condition` holds; fails after five seconds.
    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertTrue(condition(), "timed out")
    }
}
