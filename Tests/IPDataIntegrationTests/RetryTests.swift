import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `RetryPolicy` against a real server: the backend's `/flaky/STATUS/COUNT/TOKEN/…` answers fail
/// COUNT times with STATUS (a 429 with `Retry-After: 1`), then succeed; the reset-on-accept port
/// resets every connection.
final class RetryTests: LocalServerTestCase {
    private func client(_ status: Int, failing count: Int, policy: RetryPolicy) -> (IPDataClient, String) {
        let token = UUID().uuidString
        let base = URL(string: server.url("NORMAL").absoluteString + "/flaky/\(status)/\(count)/\(token)")!
        return (client(base, retryPolicy: policy), token)
    }

    /// The requests the backend saw for `token` since `mark`.
    private func attempts(_ token: String, since mark: LocalAPIServer.Mark, atLeast count: Int) async throws -> Int {
        try await server.backendEntries(since: mark, atLeast: count, timeout: count == 0 ? 0 : 10) {
            $0.path?.contains(token) == true
        }.count
    }

    private static let quick = RetryPolicy(maximumAttempts: 4, initialDelay: 0.05, maximumDelay: 2, timeBudget: 20)

    func testA429IsRetriedAfterItsRetryAfter() async throws {
        let (client, token) = client(429, failing: 2, policy: Self.quick)
        let mark = server.mark()
        let start = Date()
        let info = try await client.lookup("8.8.8.8")
        XCTAssertEqual(info.ip, "8.8.8.8")
        let sent = try await attempts(token, since: mark, atLeast: 3)
        XCTAssertEqual(sent, 3)
        print("measured: two 429s with Retry-After: 1, then the answer, in \(Int(elapsed(since: start) * 1000)) ms")
    }

    func testServerErrorsAreRetriedWithBackoffForLookups() async throws {
        let (client, token) = client(503, failing: 2, policy: Self.quick)
        let mark = server.mark()
        _ = try await client.lookup("8.8.8.8")
        let sent = try await attempts(token, since: mark, atLeast: 3)
        XCTAssertEqual(sent, 3)
    }

    /// A gateway's 502 may come after the API answered (and billed) the bulk request: it is not
    /// sent again, unless the policy asks for it. (This test used to pin the resend.)
    func testABulkRequestIsResentAfterAServerErrorOnlyWhenThePolicyAsks() async throws {
        let (bulkClient, bulkToken) = client(502, failing: 1, policy: Self.quick)
        let mark = server.mark()
        do {
            _ = try await bulkClient.bulkLookup(["8.8.8.8", "1.1.1.1"])
            XCTFail("a 502 returned results")
        } catch IPDataError.unexpectedStatus(502, _) {}
        try await Task.sleep(nanoseconds: 200_000_000)
        let sent = try await attempts(bulkToken, since: mark, atLeast: 0)
        XCTAssertEqual(sent, 1)

        var resending = Self.quick
        resending.bulkResends = .asLookups
        let (resendingClient, resendingToken) = client(502, failing: 1, policy: resending)
        let results = try await resendingClient.bulkLookup(["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(results.map(\.ip), ["8.8.8.8", "1.1.1.1"])
        let resent = try await attempts(resendingToken, since: mark, atLeast: 2)
        XCTAssertEqual(resent, 2)
    }

    /// The backend reads the whole bulk request and resets the connection, over plain http: the
    /// server had it. With `bulkResends = .never` it is not sent again; by default it is, once
    /// (the connection was lost: the contract's resend, which pays for it twice here), and with
    /// `.asLookups` as the policy's attempts allow. Counted at the backend.
    func testABulkRequestResetAfterTheServerReadItIsResentAsTheRuleSays() async throws {
        let pair = ["8.8.8.8", "1.1.1.1"]
        let bodyLength = #"["8.8.8.8","1.1.1.1"]"#.utf8.count
        for rule in [RetryPolicy.BulkResends.never, .onceAfterLostConnection, .asLookups] {
            let token = UUID().uuidString
            let base = URL(string: server.url("BACKEND").absoluteString + "/reset-after-body/1/\(token)")!
            var policy = Self.quick
            policy.bulkResends = rule
            let client = client(base, timeout: 10, retryPolicy: policy)
            let mark = server.mark()
            let start = Date()
            let outcome = await failure { try await client.bulkLookup(pair) }
            XCTAssertLessThan(elapsed(since: start), 8, "no timeout was waited for")
            let resent = rule != .never
            let read = try await server.backendEntries(since: mark, atLeast: resent ? 2 : 1, timeout: 5) {
                $0.path?.contains(token) == true
            }
            XCTAssertEqual(read.first?.dropped, true, "the server read the request and reset")
            XCTAssertTrue(read.allSatisfy { $0.bodyLen == bodyLength }, "each carried the whole body")
            if resent {
                XCTAssertNil(outcome, "\(rule): the resend is answered")
                XCTAssertEqual(read.count, 2, "\(rule)")
            } else {
                guard case .networkError? = outcome else { return XCTFail("\(String(describing: outcome))") }
                try await Task.sleep(nanoseconds: 200_000_000)
                let again = try await server.backendEntries(since: mark, atLeast: 0) {
                    $0.path?.contains(token) == true
                }
                XCTAssertEqual(again.count, 1, "sent once: the server read it")
            }
        }
    }

    func testByDefaultNothingIsRetried() async throws {
        let (client, token) = client(503, failing: 1, policy: .default)
        let mark = server.mark()
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("a 503 returned a lookup")
        } catch IPDataError.unexpectedStatus(503, _) {}
        try await Task.sleep(nanoseconds: 100_000_000)
        let sent = try await attempts(token, since: mark, atLeast: 0)
        XCTAssertEqual(sent, 1)
    }

    func testAnExhaustedQuotaIsNeverRetried() async throws {
        let (client, token) = client(403, failing: 5, policy: Self.quick)
        let mark = server.mark()
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("a 403 returned a lookup")
        } catch IPDataError.forbidden {}
        try await Task.sleep(nanoseconds: 100_000_000)
        let sent = try await attempts(token, since: mark, atLeast: 0)
        XCTAssertEqual(sent, 1)
    }

    /// A lookup whose connection is reset is tried again, up to the policy's attempts; the
    /// reset-on-accept listener logs each connection it resets. libcurl reports the reset as
    /// `URLError.unknown`: one connection per attempt. AsyncHTTPClient reports it as
    /// `networkConnectionLost`, as it does a stale pooled connection, which the transport cannot
    /// tell apart: it resends a lookup once after it, so two connections per attempt.
    func testALookupWhoseConnectionIsResetIsTriedAgain() async throws {
        let client = client(server.url("RESET_ON_ACCEPT"), timeout: 10, retryPolicy: Self.quick)
        let mark = server.mark()
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("a reset connection returned a lookup")
        } catch IPDataError.networkError(let underlying as URLError) {
            print("measured: \(transport.rawValue): a reset connection fails with URLError \(underlying.code.rawValue)")
        }
        let perAttempt = transport == .urlSession ? 1 : 2
        let resets = try await server.backendEntries(since: mark, atLeast: 4 * perAttempt) {
            $0.mode == "reset-on-accept"
        }
        XCTAssertEqual(resets.count, 4 * perAttempt, "\(perAttempt) connection(s) per attempt")
    }
}
