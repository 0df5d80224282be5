import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `RetryPolicy`: what is sent again, after how long, and what never is.
final class RetryPolicyTests: XCTestCase {
    private typealias Reply = StubTransport.Reply

    /// A clock whose waits only advance its own time, and whose jitter is the range's top.
    private final class TestClock: Sendable {
        let time = Locked<TimeInterval>(0)
        let waits = Locked<[TimeInterval]>([])

        var clock: RetryClock {
            RetryClock(
                now: { self.time.withLock { $0 } },
                sleep: { seconds in
                    self.waits.withLock { $0.append(seconds) }
                    self.time.withLock { $0 += seconds }
                },
                random: { $0.upperBound })
        }
    }

    private func client(
        _ script: [Reply], policy: RetryPolicy, clock: TestClock = TestClock()
    ) -> (IPDataClient, StubTransport, TestClock) {
        let transport = StubTransport(script)
        let client = IPDataClient(
            apiKey: "k", configuration: .init(connection: .transport(transport), retryPolicy: policy),
            clock: clock.clock)
        return (client, transport, clock)
    }

    private func error(_ operation: () async throws -> some Any) async -> IPDataError? {
        do {
            _ = try await operation()
            return nil
        } catch {
            return error as? IPDataError
        }
    }

    // MARK: The default: the contract's one resend, nothing else

    func testByDefaultAServerErrorIsNotRetried() async {
        let (client, transport, clock) = self.client([.status(503)], policy: .default)
        let failure = await error { try await client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(503, _)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(transport.count, 1)
        XCTAssertEqual(clock.waits.withLock { $0 }, [])
    }

    func testByDefaultABulkRequestOverADeadConnectionIsResentOnceAtOnce() async throws {
        let (client, transport, clock) = self.client(
            [.failure(.networkConnectionLost), .status(200, body: #"[{"ip":"8.8.8.8"}]"#)], policy: .default)
        let results = try await client.bulkLookup(["8.8.8.8"])
        XCTAssertEqual(results.map(\.ip), ["8.8.8.8"])
        XCTAssertEqual(transport.count, 2)
        XCTAssertEqual(clock.waits.withLock { $0 }, [])
    }

    /// `.never`: a connection may be lost after the server read the request (measured on Linux
    /// over plain http), and the API bills a bulk request it answered.
    func testWithBulkResendsNeverABulkRequestOverALostConnectionIsNotResent() async throws {
        for policy in [RetryPolicy.default, .recommended] {
            var never = policy
            never.bulkResends = .never
            let (client, transport, _) = self.client(
                [.failure(.networkConnectionLost), .status(200, body: #"[{"ip":"8.8.8.8"}]"#)], policy: never)
            let failure = await error { try await client.bulkLookup(["8.8.8.8"]) }
            guard case .networkError(let underlying as URLError)? = failure else {
                return XCTFail("\(String(describing: failure))")
            }
            XCTAssertEqual(underlying.code, .networkConnectionLost)
            XCTAssertEqual(transport.count, 1)
        }
    }

    func testByDefaultALookupOverADeadConnectionIsNotResent() async {
        let (client, transport, _) = self.client([.failure(.networkConnectionLost)], policy: .default)
        let failure = await error { try await client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = failure else {
            return XCTFail("\(String(describing: failure))")
        }
        XCTAssertEqual(underlying.code, .networkConnectionLost)
        XCTAssertEqual(transport.count, 1)
    }

    // MARK: An opt-in policy

    func testA429IsRetriedAfterTheWaitItsRetryAfterAsksFor() async throws {
        let (client, transport, clock) = self.client(
            [.status(429, headers: ["Retry-After": "2"]), .status(200, body: #"{"ip":"8.8.8.8"}"#)],
            policy: .recommended)
        let info = try await client.lookup("8.8.8.8")
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertEqual(transport.count, 2)
        XCTAssertEqual(clock.waits.withLock { $0 }, [2])
    }

    func testA429SlowsDownEveryCallOfTheClientNotOnlyItsOwn() async throws {
        // The first call is refused with Retry-After: 3 and gives up (one attempt); the next
        // call of the same client waits those 3 s before it sends anything.
        let (client, transport, clock) = self.client(
            [.status(429, headers: ["Retry-After": "3"]), .status(200, body: #"{"ip":"1.1.1.1"}"#)],
            policy: RetryPolicy(maximumAttempts: 1))
        let refused = await error { try await client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(429, _)? = refused else { return XCTFail("\(String(describing: refused))") }
        XCTAssertEqual(clock.waits.withLock { $0 }, [])
        let info = try await client.lookup("1.1.1.1")
        XCTAssertEqual(info.ip, "1.1.1.1")
        XCTAssertEqual(clock.waits.withLock { $0 }, [3], "the second call waited out the hold")
        XCTAssertEqual(transport.count, 2)

        // Once the hold has passed, calls go out at once.
        _ = try await client.lookup("9.9.9.9")
        XCTAssertEqual(clock.waits.withLock { $0 }, [3])
    }

    func testWithoutRateLimitRetriesA429HoldsNothingBack() async throws {
        let (client, _, clock) = self.client(
            [.status(429, headers: ["Retry-After": "3"]), .status(200, body: #"{"ip":"1.1.1.1"}"#)], policy: .default)
        _ = await error { try await client.lookup("8.8.8.8") }
        _ = try await client.lookup("1.1.1.1")
        XCTAssertEqual(clock.waits.withLock { $0 }, [], "the default policy leaves rate limits to the caller")
    }

    func testServerErrorsBackOffExponentiallyUntilTheAttemptsRunOut() async {
        let (client, transport, clock) = self.client(
            Array(repeating: .status(503), count: 10), policy: RetryPolicy(maximumAttempts: 4, initialDelay: 0.5))
        let failure = await error { try await client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(503, _)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(transport.count, 4)
        XCTAssertEqual(clock.waits.withLock { $0 }, [0.5, 1, 2], "the jitter's upper bounds, doubling")
    }

    func testTheBackoffNeverExceedsTheMaximumDelay() async {
        let policy = RetryPolicy(maximumAttempts: 6, initialDelay: 1, maximumDelay: 3, timeBudget: 100)
        let (client, _, clock) = self.client(Array(repeating: .status(500), count: 10), policy: policy)
        _ = await error { try await client.lookup("8.8.8.8") }
        XCTAssertEqual(clock.waits.withLock { $0 }, [1, 2, 3, 3, 3])
    }

    func testNoRetryStartsPastTheTimeBudget() async {
        let policy = RetryPolicy(maximumAttempts: 10, initialDelay: 0.5, timeBudget: 1)
        let (client, transport, clock) = self.client(Array(repeating: .status(502), count: 10), policy: policy)
        _ = await error { try await client.lookup("8.8.8.8") }
        XCTAssertEqual(clock.waits.withLock { $0 }, [0.5], "0.5 + 1 would end past the 1 s budget")
        XCTAssertEqual(transport.count, 2)
    }

    func testARetryAfterLongerThanTheMaximumDelayEndsTheRetries() async {
        let (client, transport, _) = self.client(
            [.status(429, headers: ["Retry-After": "3600"])], policy: .recommended)
        let failure = await error { try await client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(429, _)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(transport.count, 1)
    }

    func testClientErrorsAreNeverRetried() async {
        for status in [400, 401, 403, 404] {
            let (client, transport, _) = self.client([.status(status)], policy: .recommended)
            let failure = await error { try await client.lookup("8.8.8.8") }
            switch (status, failure) {
            case (400, .badRequest?), (401, .unauthorized?), (403, .forbidden?), (404, .notFound?): break
            default: XCTFail("\(status): \(String(describing: failure))")
            }
            XCTAssertEqual(transport.count, 1, "\(status) was sent again")
        }
    }

    func testALookupIsRetriedAfterAnyConnectionFailure() async throws {
        for code in [URLError.Code.timedOut, .cannotConnectToHost, .networkConnectionLost, .unknown] {
            let (client, transport, _) = self.client(
                [.failure(code), .status(200, body: #"{"ip":"8.8.8.8"}"#)], policy: .recommended)
            _ = try await client.lookup("8.8.8.8")
            XCTAssertEqual(transport.count, 2, "\(code)")
        }
    }

    /// The API bills a bulk request it answered: one is resent only when it cannot have arrived.
    func testABulkRequestIsRetriedOnlyWhenItCannotHaveReachedTheServer() async throws {
        let bulkAnswer = Reply.status(200, body: #"[{"ip":"8.8.8.8"}]"#)
        let (retried, retriedTransport, _) = self.client(
            [.failure(.cannotConnectToHost), bulkAnswer], policy: .recommended)
        _ = try await retried.bulkLookup(["8.8.8.8"])
        XCTAssertEqual(retriedTransport.count, 2)

        // A lost connection is resent once, at once, and no more: the server may have read the
        // request before the connection died.
        let (lost, lostTransport, _) = self.client(
            [.failure(.networkConnectionLost), .failure(.networkConnectionLost), bulkAnswer], policy: .recommended)
        let lostFailure = await error { try await lost.bulkLookup(["8.8.8.8"]) }
        guard case .networkError(let lost as URLError)? = lostFailure else {
            return XCTFail(String(describing: lostFailure))
        }
        XCTAssertEqual(lost.code, .networkConnectionLost)
        XCTAssertEqual(lostTransport.count, 2, "the one resend, then nothing")

        // The server may have read the request before it timed out, or answered what was unreadable.
        for code in [URLError.Code.timedOut, .unknown, .badServerResponse] {
            let (client, transport, _) = self.client([.failure(code), bulkAnswer], policy: .recommended)
            let failure = await error { try await client.bulkLookup(["8.8.8.8"]) }
            guard case .networkError(let underlying as URLError)? = failure else {
                return XCTFail("\(code): \(String(describing: failure))")
            }
            XCTAssertEqual(underlying.code, code)
            XCTAssertEqual(transport.count, 1, "\(code): the server may have answered")
        }
    }

    /// A 429 is the API refusing the request without acting on it; a 5xx may come from a gateway
    /// after the API answered.
    func testABulkRequestIsRetriedAfterA429ButNotAfterAServerError() async throws {
        let bulkAnswer = Reply.status(200, body: #"[{"ip":"8.8.8.8"}]"#)
        let (limited, limitedTransport, clock) = self.client(
            [.status(429, headers: ["Retry-After": "1"]), bulkAnswer], policy: .recommended)
        _ = try await limited.bulkLookup(["8.8.8.8"])
        XCTAssertEqual(limitedTransport.count, 2)
        XCTAssertEqual(clock.waits.withLock { $0 }, [1])

        for status in [500, 502, 503, 504] {
            let (client, transport, _) = self.client([.status(status), bulkAnswer], policy: .recommended)
            let failure = await error { try await client.bulkLookup(["8.8.8.8"]) }
            guard case .unexpectedStatus(status, _)? = failure else {
                return XCTFail("\(status): \(String(describing: failure))")
            }
            XCTAssertEqual(transport.count, 1, "\(status) was resent")
        }
    }

    func testAskedForItABulkRequestIsResentAfterFailuresTheServerMayHaveRead() async throws {
        var policy = RetryPolicy.recommended
        policy.bulkResends = .asLookups
        XCTAssertEqual(RetryPolicy.recommended.bulkResends, .onceAfterLostConnection)
        XCTAssertEqual(RetryPolicy.default.bulkResends, .onceAfterLostConnection)
        XCTAssertNotEqual(policy, .recommended)
        let bulkAnswer = Reply.status(200, body: #"[{"ip":"8.8.8.8"}]"#)
        for reply in [Reply.status(502), .failure(.networkConnectionLost), .failure(.timedOut)] {
            let (client, transport, _) = self.client([reply, reply, bulkAnswer], policy: policy)
            let results = try await client.bulkLookup(["8.8.8.8"])
            XCTAssertEqual(results.map(\.ip), ["8.8.8.8"])
            XCTAssertEqual(transport.count, 3, "\(reply)")
        }
        // Within the policy's attempts: the default policy has one.
        var once = RetryPolicy.default
        once.bulkResends = .asLookups
        let (client, transport, _) = self.client([.failure(.networkConnectionLost), bulkAnswer], policy: once)
        _ = await error { try await client.bulkLookup(["8.8.8.8"]) }
        XCTAssertEqual(transport.count, 1)
    }

    func testAPolicyCanLeaveServerErrorsOrConnectionFailuresAlone() async {
        let noStatus = RetryPolicy(maximumAttempts: 3, retriesRateLimitsAndServerErrors: false)
        let (first, firstTransport, _) = self.client([.status(503)], policy: noStatus)
        _ = await error { try await first.lookup("8.8.8.8") }
        XCTAssertEqual(firstTransport.count, 1)

        let noConnection = RetryPolicy(maximumAttempts: 3, retriesConnectionFailures: false)
        let (second, secondTransport, _) = self.client([.failure(.timedOut)], policy: noConnection)
        _ = await error { try await second.lookup("8.8.8.8") }
        XCTAssertEqual(secondTransport.count, 1)
    }

    func testCancellingTheCallEndsTheWaitAtOnce() async throws {
        let transport = StubTransport([.status(503, headers: ["Retry-After": "60"])])
        let client = IPDataClient(
            apiKey: "k",
            configuration: .init(
                connection: .transport(transport),
                retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 120, timeBudget: 300)))
        let lookup = Task { try await client.lookup("8.8.8.8") }
        while transport.count == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        lookup.cancel()
        let ended = expectation(description: "the cancelled call ended before its 60 s wait")
        let outcome = Locked<Error?>(nil)
        Task {
            do { _ = try await lookup.value } catch { outcome.withLock { $0 = error } }
            ended.fulfill()
        }
        await fulfillment(of: [ended], timeout: 10)
        let failure = outcome.withLock { $0 }
        guard case IPDataError.networkError(let underlying as URLError)? = failure else {
            return XCTFail("\(String(describing: failure))")
        }
        XCTAssertEqual(underlying.code, .cancelled)
        XCTAssertEqual(transport.count, 1)
    }

    // MARK: Retry-After

    func testRetryAfterIsReadAsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_445_412_450)  // Wed, 21 Oct 2015 07:27:30 GMT
        let table: [(String, TimeInterval?)] = [
            ("120", 120), (" 7 ", 7), ("0", 0), ("Wed, 21 Oct 2015 07:28:00 GMT", 30),
            ("Wed, 21 Oct 2015 07:27:00 GMT", 0), ("Sun, 06 Nov 1994 08:49:37 GMT", 0), ("-5", nil), ("1.5", nil),
            ("soon", nil), ("", nil), ("Wed, 21 Oct 2015 07:28:00 UTC", nil),
            ("Wednesday, 21-Oct-15 07:28:00 GMT", nil),
            ("Wed, 31 Feb 2015 25:00:00 GMT", nil),
        ]
        for (value, seconds) in table {
            XCTAssertEqual(RetryAfter.seconds(value, now: now), seconds, value)
        }
        XCTAssertEqual(
            RetryAfter.httpDate("Thu, 29 Feb 2024 23:59:59 GMT")?.timeIntervalSince1970, 1_709_251_199, "a leap day")
    }
}
