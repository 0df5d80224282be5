import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Cancelling the task that awaits a lookup cancels the HTTP request.
/// The slow modes answer after 5 s; a cancelled request ends long before.
final class CancellationTests: LocalServerTestCase {
    private func cancelSlowLookup(_ client: IPDataClient) async throws -> TimeInterval {
        let lookup = Task { try await client.lookup("8.8.8.8") }
        try await Task.sleep(nanoseconds: 500_000_000)  // the request is at the server, waiting
        let start = Date()
        lookup.cancel()
        do {
            _ = try await lookup.value
            XCTFail("a cancelled lookup returned a value")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertEqual(underlying.code, .cancelled)
        }
        let seconds = elapsed(since: start)
        print("measured: the cancelled lookup threw \(Int(seconds * 1000)) ms after Task.cancel()")
        return seconds
    }

    func testCancellingOverHTTP1ClosesTheConnectionAtOnce() async throws {
        let client = IPDataClient(
            apiKey: server.key, baseURL: server.url("SLOW_HTTP1"), configuration: configuration(timeout: 30))
        let mark = server.mark()
        let seconds = try await cancelSlowLookup(client)
        XCTAssertLessThan(seconds, 1, "cancellation took \(seconds) s")
        let entries = try await server.accessEntries(since: mark)
        XCTAssertEqual(entries.map(\.status), [499], "nginx saw the client go away before answering")
    }

    func testCancellingOverHTTP2EndsTheCallAtOnceAndTheServerSeesItOnTheNextUse() async throws {
        let client = IPDataClient(
            apiKey: server.key, baseURL: server.url("SLOW"), configuration: configuration(timeout: 30))
        let mark = server.mark()
        let seconds = try await cancelSlowLookup(client)
        XCTAssertLessThan(seconds, 1, "cancellation took \(seconds) s")
        // libcurl tells an HTTP/2 server about the cancelled stream when the connection is next
        // used; a later request on the same client makes that happen.
        let followUp = Task { try await client.lookup("1.1.1.1") }
        let entries = try await server.accessEntries(since: mark) { $0.status == 499 }
        followUp.cancel()
        XCTAssertEqual(entries.map(\.status), [499])
    }

    /// Cancelling just as the answer arrives once deadlocked URLSession on Linux (the task's
    /// cancellation handler and URLSession's work queue waited for each other). Hundreds of
    /// cancellations at moments around the answer's arrival must all end.
    func testCancellingWhileAnswersArriveNeverDeadlocks() async throws {
        // A deadlock also stops Swift's cooperative threads, so no task could report it: a plain
        // thread ends the process with a message instead of letting the suite hang.
        let done = Locked(false)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 30)
            guard !done.withLock({ $0 }) else { return }
            FileHandle.standardError.write(
                Data("CancellationTests: cancelled lookups deadlocked; stopping the run\n".utf8))
            exit(1)
        }
        defer { done.withLock { $0 = true } }
        let client = IPDataClient(apiKey: server.key, baseURL: server.url("NORMAL"), configuration: configuration())
        _ = try await client.lookup("8.8.8.8")
        for round in 0..<400 {
            let lookup = Task { try await client.lookup("8.8.\(round / 256).\(round % 256)") }
            try await Task.sleep(nanoseconds: UInt64(round % 40) * 25_000)
            lookup.cancel()
            let finished = await finishes(within: 10) { _ = try? await lookup.value }
            XCTAssertTrue(finished, "round \(round): a cancelled lookup never ended")
            if !finished { return }
        }
    }
}
