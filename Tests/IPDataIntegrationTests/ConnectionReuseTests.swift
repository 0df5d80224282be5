import Foundation
import IPDataTestSupport
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP/2 and connection reuse, counted in the server's access log.
final class ConnectionReuseTests: LocalServerTestCase {
    /// What a client uses by default: `URLSession.shared`, or `AsyncHTTPClientTransport.sharedClient`.
    func testHTTP2IsNegotiatedForTheDefaultConnection() async throws {
        let mark = server.mark()
        _ = try await client(server.url("NORMAL"), connection: .shared).lookup("8.8.8.8")
        let entries = try await server.accessEntries(since: mark)
        XCTAssertEqual(entries.map(\.proto), ["HTTP/2.0"])
    }

    func testHTTP2IsNegotiatedForAnOwnedSession() async throws {
        let mark = server.mark()
        _ = try await client(server.url("NORMAL")).lookup("8.8.8.8")
        let entries = try await server.accessEntries(since: mark)
        XCTAssertEqual(entries.map(\.proto), ["HTTP/2.0"])
    }

    func testTwoHundredSequentialLookupsUseOneConnection() async throws {
        let mark = server.mark()
        let client = client(server.url("NORMAL"))
        for index in 0..<200 {
            _ = try await client.lookup("8.8.\(index / 256).\(index % 256)")
        }
        let entries = try await server.accessEntries(since: mark, atLeast: 200)
        XCTAssertEqual(entries.count, 200)
        XCTAssertEqual(Set(entries.map(\.conn)).count, 1, "TCP connections used")
        XCTAssertEqual(entries.map(\.connReqs).max(), 200)
    }

    func testFiftyConcurrentLookupsAfterAWarmUpShareOneConnection() async throws {
        let mark = server.mark()
        let client = client(server.url("NORMAL"))
        _ = try await client.lookup("8.8.8.8")
        let ips = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<50 { group.addTask { try await client.lookup("9.9.9.\(index)").ip } }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        XCTAssertEqual(ips.count, 50)
        let entries = try await server.accessEntries(since: mark, atLeast: 51)
        XCTAssertEqual(entries.count, 51)
        XCTAssertEqual(Set(entries.map(\.conn)).count, 1, "TCP connections used")
        XCTAssertEqual(Set(entries.map(\.proto)), ["HTTP/2.0"])
    }

    /// Through URLSession each client owns a session, invalidated when the client goes; through
    /// AsyncHTTPClient each has a transport on the shared `HTTPClient`, which holds the connections.
    /// A client never closes what it was given: once it is gone, another client on the same
    /// session (never invalidated) or `HTTPClient` (never shut down) still works.
    func testWhatAClientWasGivenOutlivesIt() async throws {
        let given = connection(.injected)
        do {
            let first = IPDataClient(
                apiKey: server.key, configuration: .init(baseURL: server.url("NORMAL"), connection: given))
            _ = try await first.lookup("8.8.8.8")
        }
        try await settle()
        let again = IPDataClient(
            apiKey: server.key, configuration: .init(baseURL: server.url("NORMAL"), connection: given))
        let info = try await again.lookup("1.1.1.1")
        XCTAssertEqual(info.ip, "1.1.1.1")
    }

    func testFiveHundredDroppedClientsLeaveNoDescriptorsOrThreadsBehind() async throws {
        // One client first, so that what the transport sets up once per process is in the baseline.
        do {
            _ = try await client(server.url("NORMAL"), connection: ownOrShared).lookup("8.8.8.8")
        }
        try await settle()
        let baseline = try XCTUnwrap(ProcessResources.openFileDescriptors, "no descriptor count on this platform")
        let baselineThreads = ProcessResources.threads

        let invalidated = expectation(description: "every owned session invalidated")
        invalidated.expectedFulfillmentCount = 500
        for index in 0..<500 {
            let client = client(server.url("NORMAL"), connection: ownOrShared)
            if transport == .urlSession {
                let delegate = try XCTUnwrap((client.transport as? URLSessionTransport)?.ownedSessionDelegate)
                delegate.onInvalidation { invalidated.fulfill() }
            } else {
                invalidated.fulfill()  // nothing to invalidate: the clients share one HTTPClient
            }
            _ = try await client.lookup("11.\(index / 256).\(index % 256).1")
        }
        // On Linux a dropped session is freed even without invalidation (measured), so the
        // descriptor count alone cannot show it: each session also reports its invalidation.
        await fulfillment(of: [invalidated], timeout: 20)
        // Invalidation finishes asynchronously; give it a bounded moment.
        func settled() -> Bool {
            (ProcessResources.openFileDescriptors ?? .max) <= baseline + 4
                && (ProcessResources.threads ?? 0) <= (baselineThreads ?? 0) + 4
        }
        let deadline = Date().addingTimeInterval(20)
        while !settled(), Date() < deadline {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        let fds = try XCTUnwrap(ProcessResources.openFileDescriptors)
        print("measured: 500 dropped clients (\(transport.rawValue)): descriptors \(baseline) -> \(fds)")
        XCTAssertLessThanOrEqual(fds, baseline + 4, "open descriptors: \(baseline) before, \(fds) after")
        // Threads are counted where the platform lists them (Linux); Darwin has no /proc.
        if let baselineThreads, let threads = ProcessResources.threads {
            print("measured: 500 dropped clients (\(transport.rawValue)): threads \(baselineThreads) -> \(threads)")
            XCTAssertLessThanOrEqual(
                threads, baselineThreads + 4, "threads: \(baselineThreads) before, \(threads) after")
        }
    }

    /// A session per client through URLSession; the shared `HTTPClient` through AsyncHTTPClient,
    /// as an app's clients would use it.
    private var ownOrShared: ClientConnection {
        transport == .urlSession ? .own : .shared
    }

    private func settle() async throws {
        try await Task.sleep(nanoseconds: 500_000_000)
    }
}
