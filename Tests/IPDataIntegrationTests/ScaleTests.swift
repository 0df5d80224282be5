import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Lookups at any scale against the real server: streaming bulk, the cache, coalescing.
final class ScaleTests: LocalServerTestCase {
    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { "9.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
    }

    private func client(key: String? = nil, cache: LookupCache? = nil) -> IPDataClient {
        client(server.url("NORMAL"), key: key, cache: cache)
    }

    func testAThousandAddressesArriveInOrderFromTenRequests() async throws {
        let mark = server.mark()
        let ips = addresses(1_000)
        var seen: [String] = []
        for try await result in client().lookupStream(ips) {
            XCTAssertEqual(result.response?.ip, result.ip)
            seen.append(result.ip)
        }
        XCTAssertEqual(seen, ips)
        let requests = try await server.accessEntries(since: mark, atLeast: 10)
        XCTAssertEqual(requests.count, 10)
        XCTAssertTrue(requests.allSatisfy { $0.method == "POST" && $0.uri == "/bulk" && $0.status == 200 })
    }

    func testInlineRejectionsAreTheirAddressesFailures() async throws {
        var ips = addresses(247)
        ips.insert("127.0.0.1", at: 0)
        ips.insert("10.0.0.7", at: 120)
        ips.insert("224.244.244.244", at: 249)
        let results = try await client().lookupAll(ips)
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(results.compactMap(\.response).count, 247)
        let failures = results.filter { $0.error != nil }
        XCTAssertEqual(failures.map(\.ip), ["127.0.0.1", "10.0.0.7", "224.244.244.244"])
        XCTAssertFalse(failures.contains(where: \.isRequestFailure))
        XCTAssertEqual(failures.first?.error?.description, "Bad Request: 127.0.0.1 is a private IP address")
    }

    func testACacheHitSendsNoRequest() async throws {
        let client = client(cache: LookupCache())
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookupAll(addresses(150))
        let mark = server.mark()
        let again = try await client.lookup("8.8.8.8")
        let stream = try await client.lookupAll(addresses(150))
        let bulk = try await client.bulkLookup(Array(addresses(100)))
        XCTAssertEqual(again.ip, "8.8.8.8")
        XCTAssertEqual(stream.compactMap(\.response).count, 150)
        XCTAssertEqual(bulk.count, 100)
        // A marker request proves the log is current: it must be the only entry.
        _ = try await client.lookup("1.1.1.1")
        let entries = try await server.accessEntries(since: mark)
        XCTAssertEqual(entries.map(\.uri), ["/1.1.1.1"])
    }

    func testFiftyConcurrentLookupsOfOneAddressSendOneRequest() async throws {
        // Every answer takes a second here, so the fifty lookups overlap.
        let client = client(server.url("NORMAL").appendingPathComponent("delay/1"))
        let mark = server.mark()
        let ips = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<50 { group.addTask { try await client.lookup("8.8.8.8").ip } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        XCTAssertEqual(ips, Array(repeating: "8.8.8.8", count: 50))
        let entries = try await server.accessEntries(since: mark)
        XCTAssertEqual(entries.count, 1)
    }

    func testWithoutBulkAccessTheStreamCarriesOnWithSingleLookups() async throws {
        let mark = server.mark()
        let ips = addresses(120)
        let results = try await client(key: "free-key").lookupAll(ips, options: LookupStreamOptions(concurrency: 4))
        XCTAssertEqual(results.compactMap(\.response?.ip), ips)
        // Waits for the lookups' lines themselves: counting all lines, two refused bulk requests
        // (the stream has several in flight when the first 403 comes) could fill the count first.
        let lookups = try await server.accessEntries(since: mark, atLeast: 120) { $0.method == "GET" }
        XCTAssertEqual(lookups.filter { $0.status == 200 }.count, 120)
        // 499: an earlier test's cancelled bulk request, which nginx logs when the client closes
        // its connection, perhaps after this test's mark.
        let posts = try await server.accessEntries(since: mark, timeout: 0) { $0.method == "POST" && $0.status != 499 }
        XCTAssertLessThanOrEqual(posts.count, 2)
        XCTAssertTrue(posts.allSatisfy { $0.status == 403 })
    }

    /// Over HTTP/1.1 for URLSession, whose libcurl closes a cancelled request's connection at
    /// once; over HTTP/2 for AsyncHTTPClient, which resets each cancelled stream at once (nginx
    /// misses its HTTP/1.1 close until it writes the answer: see CancellationTests).
    func testCancellingAStreamCancelsItsRequestsInFlight() async throws {
        let client = client(server.url(transport == .urlSession ? "SLOW_HTTP1" : "SLOW"), timeout: 30)
        let mark = server.mark()
        let ips = addresses(1_000)
        let consumer = Task {
            var count = 0
            for try await _ in client.lookupStream(ips) { count += 1 }
            return count
        }
        try await Task.sleep(nanoseconds: 500_000_000)  // four bulk requests wait at the server
        let start = Date()
        consumer.cancel()
        let delivered = try? await consumer.value
        XCTAssertLessThan(elapsed(since: start), 2, "the slow server answers after 5 s")
        XCTAssertEqual(delivered ?? 0, 0)
        // Only the stream's own requests: an earlier test may have used the same port.
        let entries = try await server.accessEntries(since: mark, atLeast: 4) { $0.uri == "/bulk" }
        XCTAssertEqual(entries.map(\.status), [499, 499, 499, 499], "the server saw every request go away")
        // Nothing more was sent after the cancellation.
        try await Task.sleep(nanoseconds: 1_000_000_000)
        let later = try await server.accessEntries(since: mark, atLeast: 5, timeout: 0) { $0.uri == "/bulk" }
        XCTAssertEqual(later.count, 4)
    }
}
