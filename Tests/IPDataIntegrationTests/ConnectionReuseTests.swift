import Foundation
import IPDataTestSupport
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP/2 and connection reuse, counted in the server's access log.
final class ConnectionReuseTests: LocalServerTestCase {
    func testHTTP2IsNegotiatedForTheDefaultSession() async throws {
        let mark = server.mark()
        let client = IPDataClient(apiKey: server.key, baseURL: server.url("NORMAL"))
        _ = try await client.lookup("8.8.8.8")
        let entries = try await server.accessEntries(since: mark)
        XCTAssertEqual(entries.map(\.proto), ["HTTP/2.0"])
    }

    func testHTTP2IsNegotiatedForAnOwnedSession() async throws {
        let mark = server.mark()
        let client = IPDataClient(apiKey: server.key, baseURL: server.url("NORMAL"), configuration: configuration())
        _ = try await client.lookup("8.8.8.8")
        let entries = try await server.accessEntries(since: mark)
        XCTAssertEqual(entries.map(\.proto), ["HTTP/2.0"])
    }

    func testTwoHundredSequentialLookupsUseOneConnection() async throws {
        let mark = server.mark()
        let client = IPDataClient(apiKey: server.key, baseURL: server.url("NORMAL"), configuration: configuration())
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
        let client = IPDataClient(apiKey: server.key, baseURL: server.url("NORMAL"), configuration: configuration())
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

    func testFiveHundredDroppedClientsLeaveNoDescriptorsOrThreadsBehind() async throws {
        // One client first, so that what URLSession sets up once per process is in the baseline.
        do {
            let warmUp = IPDataClient(apiKey: server.key, baseURL: server.url("NORMAL"), configuration: configuration())
            _ = try await warmUp.lookup("8.8.8.8")
        }
        try await settle()
        let baseline = try XCTUnwrap(ProcessResources.openFileDescriptors, "no descriptor count on this platform")
        let baselineThreads = ProcessResources.threads

        let invalidated = expectation(description: "every owned session invalidated")
        invalidated.expectedFulfillmentCount = 500
        for index in 0..<500 {
            let client = IPDataClient(apiKey: server.key, baseURL: server.url("NORMAL"), configuration: configuration())
            (client.transport as? URLSessionTransport)?.ownedSessionDelegate?.onInvalidation { invalidated.fulfill() }
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
        print("measured: 500 owned clients: descriptors \(baseline) -> \(fds)")
        XCTAssertLessThanOrEqual(fds, baseline + 4, "open descriptors: \(baseline) before, \(fds) after")
        // Threads are counted where the platform lists them (Linux); Darwin has no /proc.
        if let baselineThreads, let threads = ProcessResources.threads {
            print("measured: 500 owned clients: threads \(baselineThreads) -> \(threads)")
            XCTAssertLessThanOrEqual(
                threads, baselineThreads + 4, "threads: \(baselineThreads) before, \(threads) after")
        }
    }

    private func settle() async throws {
        try await Task.sleep(nanoseconds: 500_000_000)
    }
}
