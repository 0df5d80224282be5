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
        print(
            "measured: \(transport.rawValue): the cancelled lookup threw \(Int(seconds * 1000)) ms after Task.cancel()")
        return seconds
    }

    /// libcurl closes the connection, and nginx logs 499 at once. AsyncHTTPClient closes it too,
    /// but with a TLS close_notify first, which nginx's check for a gone client takes for more
    /// data: it notices only once the slow answer is written (measured: it then logs 200). So
    /// through AsyncHTTPClient what is checked is that the cancelled connection is never used
    /// again: the next request on the same `HTTPClient` opens a fresh one.
    func testCancellingOverHTTP1ClosesTheConnectionAtOnce() async throws {
        let client = client(server.url("SLOW_HTTP1"), timeout: 30)
        let mark = server.mark()
        let seconds = try await cancelSlowLookup(client)
        XCTAssertLessThan(seconds, 1, "cancellation took \(seconds) s")
        switch transport {
        case .urlSession:
            let entries = try await server.accessEntries(since: mark)
            XCTAssertEqual(entries.map(\.status), [499], "nginx saw the client go away before answering")
        case .asyncHTTPClient:
            let quick = URL(string: server.url("SLOW_HTTP1").absoluteString + "/delay/0")!
            _ = try await self.client(quick).lookup("1.1.1.1")
            let entries = try await server.accessEntries(since: mark) { $0.uri.hasPrefix("/delay/0/") }
            XCTAssertEqual(entries.map(\.connReqs), [1], "the next request went over a fresh connection")
        }
    }

    /// libcurl tells an HTTP/2 server about the cancelled stream only when the connection is next
    /// used, so a later request on the same client makes that happen. AsyncHTTPClient resets the
    /// stream at once.
    func testCancellingOverHTTP2EndsTheCallAtOnceAndTheServerSeesIt() async throws {
        let client = client(server.url("SLOW"), timeout: 30)
        let mark = server.mark()
        let seconds = try await cancelSlowLookup(client)
        XCTAssertLessThan(seconds, 1, "cancellation took \(seconds) s")
        let followUp = transport == .urlSession ? Task { try await client.lookup("1.1.1.1") } : nil
        let entries = try await server.accessEntries(since: mark) { $0.status == 499 }
        followUp?.cancel()
        XCTAssertEqual(entries.map(\.status), [499])
    }

    /// Cancelled while the answer's body arrives (one byte at a time), the call throws
    /// `cancelled` rather than hand back what was read (which would fail to decode).
    func testCancellingWhileTheBodyArrivesThrowsCancelled() async throws {
        let client = client(URL(string: server.url("BACKEND").absoluteString + "/hostile/trickle")!, deadline: 60)
        let lookup = Task { try await client.lookup("8.8.8.8") }
        try await Task.sleep(nanoseconds: 500_000_000)  // the head and a few bytes have arrived
        lookup.cancel()
        do {
            let info = try await lookup.value
            XCTFail("a cancelled lookup returned \(info)")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertEqual(underlying.code, .cancelled)
        }
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
        let client = client(server.url("NORMAL"))
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
