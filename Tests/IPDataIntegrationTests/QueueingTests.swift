import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many concurrent lookups over HTTP/1.1, where URLSession opens at most
/// `httpMaximumConnectionsPerHost` connections to a host and queues the other requests with
/// their timeouts running. libcurl's queue is not first-come: a queued request can be overtaken
/// again and again until it times out, never sent (measured: 1 or 2 of 200 lookups, in about
/// half the runs, when the client had 16 in flight over 6 connections). The client keeps the
/// surplus in its own queue, so none waits inside URLSession. AsyncHTTPClient queues requests
/// for a connection too, inside the deadline that its timeout sets.
final class QueueingTests: LocalServerTestCase {
    /// Each answer takes 0.2 s and the request timeout is 4 s.
    private var slowBase: URL { URL(string: server.url("SLOW_HTTP1").absoluteString + "/delay/0.2")! }

    func testOverASessionOfItsOwnTheClientOpensAConnectionForEachRequestInFlight() async throws {
        let run = try await lookUpConcurrently(200, with: client(slowBase, timeout: 4), label: "own connection")
        XCTAssertEqual(run.failures, [], "every lookup succeeded")
        XCTAssertLessThanOrEqual(run.connections, 16 + 6, "at most one connection a request in flight")
    }

    func testOverASessionOfTheCallersTheClientSendsNoMoreThanItsConnections() async throws {
        try onlyThroughURLSession("a caller's session and its httpMaximumConnectionsPerHost")
        let session = URLSession(configuration: configuration(timeout: 4))
        defer { session.finishTasksAndInvalidate() }
        let client = IPDataClient(
            apiKey: server.key, configuration: .init(baseURL: slowBase, connection: .session(session)))
        XCTAssertEqual(client.slots.limit, 6)
        let run = try await lookUpConcurrently(200, with: client, label: "caller's session, 6 connections a host")
        XCTAssertEqual(run.failures, [], "every lookup succeeded")
        XCTAssertEqual(client.slots.limit, 6, "the answers showed HTTP/1.1")
        // nginx logs an end a little after the client has its answer, so allow 2 more.
        XCTAssertLessThanOrEqual(run.mostAtOnce, 6 + 2, "never more at once than the session's 6 connections")
    }

    /// Over HTTP/2 nothing queues inside URLSession: once an answer shows HTTP/2, the client sends
    /// its whole `maximumConcurrentRequests` through a session of the caller's.
    func testOverHTTP2ASessionOfTheCallersCarriesTheClientsWholeLimit() async throws {
        try onlyThroughURLSession("a caller's session, and the HTTP/2 watch of URLSessionTransport")
        let session = URLSession(configuration: configuration(timeout: 4))
        defer { session.finishTasksAndInvalidate() }
        let base = URL(string: server.url("NORMAL").absoluteString + "/delay/0.2")!
        let client = IPDataClient(
            apiKey: server.key, configuration: .init(baseURL: base, connection: .session(session)))
        XCTAssertEqual(client.slots.limit, 6, "before any answer")
        let run = try await lookUpConcurrently(200, with: client, label: "caller's session", proto: "HTTP/2.0")
        XCTAssertEqual(run.failures, [], "every lookup succeeded")
        XCTAssertEqual(client.slots.limit, 16, "the answers showed HTTP/2")
        XCTAssertGreaterThan(run.mostAtOnce, 10, "more at once than the session's 6 connections")
    }

    private struct Run {
        let failures: [String]
        let connections: Int
        /// The most requests nginx was working on at once.
        let mostAtOnce: Int
    }

    private func lookUpConcurrently(
        _ count: Int, with client: IPDataClient, label: String, proto: String = "HTTP/1.1"
    ) async throws -> Run {
        // Warm up: open connections (and nginx's to its backend, which the tests that misbehave
        // on purpose may have left closed) before the measured run.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<6 { group.addTask { _ = try? await client.lookup("9.7.0.\(index)") } }
        }
        let mark = server.mark()
        let start = Date()
        let failures = await withTaskGroup(of: String?.self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        _ = try await client.lookup("9.8.\(index / 256).\(index % 256)")
                        return nil
                    } catch {
                        return "9.8.\(index / 256).\(index % 256): \(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        let entries = try await server.accessEntries(since: mark, atLeast: count - failures.count)
        XCTAssertEqual(Set(entries.map(\.proto)), [proto])
        let connections = Set(entries.map(\.conn)).count
        let mostAtOnce = Self.mostAtOnce(entries)
        print(
            "measured: \(count) concurrent lookups over \(proto), \(label) (0.2 s each, 4 s timeout): "
                + "\(transport.rawValue), \(failures.count) failed, \(connections) connections, at most \(mostAtOnce) at once, "
                + "\(Int(elapsed(since: start) * 1000)) ms")
        return Run(failures: failures, connections: connections, mostAtOnce: mostAtOnce)
    }

    /// The most requests that overlapped in time at the server (each from its start,
    /// `msec - request_time`, to its end, `msec`).
    private static func mostAtOnce(_ entries: [LocalAPIServer.AccessEntry]) -> Int {
        var edges: [(time: Double, change: Int)] = []
        for entry in entries {
            edges.append((entry.msec - entry.requestTime, 1))
            edges.append((entry.msec, -1))
        }
        // At the same instant an end comes before a start: back to back is not at once.
        edges.sort { $0.time != $1.time ? $0.time < $1.time : $0.change < $1.change }
        var current = 0
        var most = 0
        for edge in edges {
            current += edge.change
            most = max(most, current)
        }
        return most
    }
}
