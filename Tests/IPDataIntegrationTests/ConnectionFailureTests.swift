import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pooled connections that the server closes or resets.
final class ConnectionFailureTests: LocalServerTestCase {
    private static let pair = ["8.8.8.8", "1.1.1.1"]
    /// The bytes of the JSON body the client sends for `pair`.
    private static let pairBodyLength = #"["8.8.8.8","1.1.1.1"]"#.utf8.count

    private func idleCloseSurvives(_ client: IPDataClient) async throws {
        let mark = server.mark()
        _ = try await client.lookup("8.8.8.8")
        try await Task.sleep(nanoseconds: 1_500_000_000)  // the server closes idle connections after 1 s
        let second = try await client.lookup("1.1.1.1")
        XCTAssertEqual(second.ip, "1.1.1.1")
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let results = try await client.bulkLookup(Self.pair)
        XCTAssertEqual(results.map(\.ip), Self.pair)
        let entries = try await server.accessEntries(since: mark, atLeast: 3)
        XCTAssertEqual(entries.map(\.status), [200, 200, 200])
        XCTAssertEqual(Set(entries.map(\.conn)).count, 3, "each request after an idle close used a new connection")
    }

    func testLookupAndBulkSucceedAfterTheServerClosedAnIdleConnectionOwnedSession() async throws {
        try await idleCloseSurvives(
            IPDataClient(apiKey: server.key, baseURL: server.url("IDLE_CLOSE"), configuration: configuration()))
    }

    func testLookupAndBulkSucceedAfterTheServerClosedAnIdleConnectionSharedSession() async throws {
        try await idleCloseSurvives(IPDataClient(apiKey: server.key, baseURL: server.url("IDLE_CLOSE")))
    }

    /// The race: the second request on a connection is read and then reset without an answer.
    private func raceSurvives(_ client: IPDataClient) async throws {
        let mark = server.mark()
        _ = try await client.lookup("8.8.8.8")  // first request on a connection: served
        let second = try await client.lookup("1.1.1.1")
        XCTAssertEqual(second.ip, "1.1.1.1", "a reset GET is resent")
        let start = Date()
        let results = try await withinTimeLimit(20) { try await client.bulkLookup(Self.pair) }
        let seconds = elapsed(since: start)
        XCTAssertEqual(results.map(\.ip), Self.pair)
        XCTAssertLessThan(seconds, 10, "bulkLookup waited for a timeout instead of being resent")
        print("measured: bulkLookup through the reused-connection race took \(Int(seconds * 1000)) ms")

        let posts = try await server.accessEntries(since: mark, atLeast: 2) { $0.method == "POST" }
        XCTAssertTrue(posts.contains { $0.status == 444 }, "the race happened: a POST /bulk was reset unanswered")
        XCTAssertEqual(posts.last?.status, 200)
        let served = try await server.backendEntries(since: mark) { $0.path == "/bulk" && $0.status == 200 }
        XCTAssertEqual(served.count, 1)
        XCTAssertEqual(served.first?.bodyLen, Self.pairBodyLength, "the resent POST carried its whole body")
        let emptyButAnswered = try await server.backendEntries(since: mark, atLeast: 0) {
            $0.path == "/bulk" && $0.bodyLen == 0 && $0.status == 200
        }
        XCTAssertTrue(emptyButAnswered.isEmpty, "no 200 for a body the server did not receive")
    }

    func testRaceOnAReusedConnectionOwnedSession() async throws {
        try await raceSurvives(
            IPDataClient(apiKey: server.key, baseURL: server.url("RACE"), configuration: configuration(timeout: 30)))
    }

    func testRaceOnAReusedConnectionInjectedSession() async throws {
        let session = URLSession(configuration: configuration(timeout: 30))
        defer { session.finishTasksAndInvalidate() }
        try await raceSurvives(IPDataClient(apiKey: server.key, baseURL: server.url("RACE"), session: session))
    }

    func testRaceOnAReusedConnectionSharedSession() async throws {
        try await raceSurvives(IPDataClient(apiKey: server.key, baseURL: server.url("RACE")))
    }

    /// When the server reads the whole POST and then resets, it may have acted on it: the client
    /// reports the failure at once. Linux reports the reset as `URLError.unknown`, which is not
    /// resent. Apple platforms may report `networkConnectionLost`, which the contract resends once.
    func testAResetAfterTheBodyWasReadFailsFastWithoutAResend() async throws {
        let client = IPDataClient(
            apiKey: server.key, baseURL: server.url("RACE_AFTER_BODY"), configuration: configuration(timeout: 30))
        let mark = server.mark()
        _ = try await client.lookup("8.8.8.8")
        let start = Date()
        do {
            _ = try await client.bulkLookup(Self.pair)
            XCTFail("a reset bulk request returned results")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertNotEqual(underlying.code, .timedOut)
        }
        XCTAssertLessThan(elapsed(since: start), 10)
        let received = try await server.backendEntries(since: mark) { $0.path == "/bulk" }
        #if canImport(FoundationNetworking)
        XCTAssertEqual(received.map(\.bodyLen), [Self.pairBodyLength])
        #else
        XCTAssertTrue((1...2).contains(received.count), "sent once, resent at most once: \(received.count)")
        XCTAssertTrue(received.allSatisfy { $0.bodyLen == Self.pairBodyLength })
        #endif
        XCTAssertEqual(received.first?.dropped, true)
    }

    func testAConnectionResetOnAcceptIsANetworkError() async throws {
        let client = IPDataClient(
            apiKey: server.key, baseURL: server.url("RESET_ON_ACCEPT"), configuration: configuration(timeout: 10))
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("a reset connection returned a lookup")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertNotEqual(underlying.code, .timedOut, "the reset surfaced at once")
        }
    }
}
