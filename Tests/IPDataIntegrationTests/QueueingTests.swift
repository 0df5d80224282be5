import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many concurrent lookups over HTTP/1.1, where libcurl opens at most six connections to a host
/// and a request's timeout runs while it waits for one: the client keeps the surplus in its own
/// queue, so none times out waiting.
final class QueueingTests: LocalServerTestCase {
    func testManyConcurrentLookupsOverHTTP1DoNotTimeOutWaitingForAConnection() async throws {
        // Each answer takes 0.2 s; 200 lookups on 6 connections take about 7 s, longer than the
        // 4 s request timeout that a request queued inside URLSession would run out of.
        let base = URL(string: server.url("SLOW_HTTP1").absoluteString + "/delay/0.2")!
        let client = IPDataClient(apiKey: server.key, baseURL: base, configuration: configuration(timeout: 4))
        // Warm up: open the six connections (and nginx's to its backend, which the tests that
        // misbehave on purpose may have left closed) before the measured run.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<6 { group.addTask { _ = try? await client.lookup("9.7.0.\(index)") } }
        }
        let mark = server.mark()
        let start = Date()
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for index in 0..<200 {
                group.addTask {
                    do {
                        _ = try await client.lookup("9.8.\(index / 256).\(index % 256)")
                        return nil
                    } catch {
                        return String(describing: error)
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        XCTAssertEqual(outcomes, [], "every lookup succeeded")
        let entries = try await server.accessEntries(since: mark, atLeast: 200)
        XCTAssertEqual(Set(entries.map(\.proto)), ["HTTP/1.1"])
        print(
            "measured: 200 concurrent lookups over HTTP/1.1 (0.2 s each, 4 s timeout): \(outcomes.count) failed, "
                + "\(Set(entries.map(\.conn)).count) connections, \(Int(elapsed(since: start) * 1000)) ms")
    }
}
