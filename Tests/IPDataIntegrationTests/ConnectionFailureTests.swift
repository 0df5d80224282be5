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
        try await idleCloseSurvives(client(server.url("IDLE_CLOSE")))
    }

    func testLookupAndBulkSucceedAfterTheServerClosedAnIdleConnectionSharedSession() async throws {
        try await idleCloseSurvives(client(server.url("IDLE_CLOSE"), connection: .shared))
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
        try await raceSurvives(client(server.url("RACE"), timeout: 30))
    }

    func testRaceOnAReusedConnectionInjectedSession() async throws {
        try onlyThroughURLSession("a session of the caller's: AsyncHTTPClientTransport always has an HTTPClient given")
        try await raceSurvives(client(server.url("RACE"), connection: .injected, timeout: 30))
    }

    func testRaceOnAReusedConnectionSharedSession() async throws {
        try await raceSurvives(client(server.url("RACE"), connection: .shared))
    }

    /// When the server reads the whole POST and then resets, it may have acted on it. Linux
    /// URLSession sends a POST with `Expect: 100-continue`, which tells this apart from a stale
    /// connection: the reset is `URLError.unknown`, reported at once and not resent. Apple
    /// platforms may report `networkConnectionLost`, which the contract resends once.
    /// AsyncHTTPClient sends the body at once and cannot tell them apart either: the reset is
    /// `networkConnectionLost`, so the request is resent once, whole, on a fresh connection, where
    /// it is answered.
    func testAResetAfterTheBodyWasReadFailsFastOrIsResentOnce() async throws {
        let client = client(server.url("RACE_AFTER_BODY"), timeout: 30)
        let mark = server.mark()
        _ = try await client.lookup("8.8.8.8")
        let start = Date()
        switch transport {
        case .urlSession:
            do {
                _ = try await client.bulkLookup(Self.pair)
                XCTFail("a reset bulk request returned results")
            } catch IPDataError.networkError(let underlying as URLError) {
                XCTAssertNotEqual(underlying.code, .timedOut)
            }
        case .asyncHTTPClient:
            let results = try await client.bulkLookup(Self.pair)
            XCTAssertEqual(results.map(\.ip), Self.pair)
        }
        XCTAssertLessThan(elapsed(since: start), 10)
        let received = try await server.backendEntries(since: mark, atLeast: transport == .urlSession ? 1 : 2) {
            $0.path == "/bulk"
        }
        switch transport {
        case .urlSession:
            #if canImport(FoundationNetworking)
            XCTAssertEqual(received.map(\.bodyLen), [Self.pairBodyLength])
            #else
            XCTAssertTrue((1...2).contains(received.count), "sent once, resent at most once: \(received.count)")
            XCTAssertTrue(received.allSatisfy { $0.bodyLen == Self.pairBodyLength })
            #endif
        case .asyncHTTPClient:
            XCTAssertEqual(received.map(\.bodyLen), [Self.pairBodyLength, Self.pairBodyLength], "resent once, whole")
            XCTAssertEqual(received.last?.status, 200)
        }
        XCTAssertEqual(received.first?.dropped, true)
    }

    func testAConnectionResetOnAcceptIsANetworkErrorAtOnceWithoutTheKey() async throws {
        let client = client(server.url("RESET_ON_ACCEPT"), timeout: 10)
        let start = Date()
        let error = await failure { try await client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail(String(describing: error))
        }
        XCTAssertNotEqual(underlying.code, .timedOut, "the reset surfaced at once")
        XCTAssertLessThan(elapsed(since: start), 10)
        XCTAssertFalse(error!.description.contains(server.key), error!.description)
    }

    func testAConnectionRefusedIsCannotConnectToHostWithoutTheKey() async throws {
        // Port 1 (tcpmux) on loopback: nothing listens there.
        let start = Date()
        let error = await failure { try await self.client(URL(string: "https://127.0.0.1:1")!).lookup("8.8.8.8") }
        XCTAssertLessThan(elapsed(since: start), 5, "refused at once")
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail(String(describing: error))
        }
        XCTAssertEqual(underlying.code, .cannotConnectToHost)
        XCTAssertFalse(error!.description.contains(server.key), error!.description)
        XCTAssertFalse(String(describing: underlying).contains(server.key))
    }

    /// `https` to the backend's plain-HTTP port: no TLS handshake is possible.
    func testATLSFailureIsANetworkErrorWithoutTheKey() async throws {
        let https = server.url("BACKEND").absoluteString.replacingOccurrences(of: "http://", with: "https://")
        let error = await failure { try await self.client(URL(string: https)!).lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail(String(describing: error))
        }
        // libcurl reports a failed handshake as `.unknown` (/work/shared/LINUX-URLSESSION.md); NIOSSL's errors
        // become `.secureConnectionFailed`, as on Apple platforms.
        #if canImport(FoundationNetworking)
        let expected: URLError.Code = transport == .urlSession ? .unknown : .secureConnectionFailed
        #else
        let expected = URLError.Code.secureConnectionFailed
        #endif
        XCTAssertEqual(underlying.code, expected)
        XCTAssertFalse(error!.description.contains(server.key), error!.description)
    }
}
