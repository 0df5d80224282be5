import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `LookupStreamOptions.flushInterval`: input that pauses (a log being written) gets its results
/// before it goes on, without it chunks wait to fill, and the reader stays bounded and stoppable.
final class FlushIntervalTests: MockedClientTestCase {
    private func options(flushInterval: TimeInterval?, concurrency: Int = 4) -> LookupStreamOptions {
        var options = LookupStreamOptions(concurrency: concurrency)
        options.flushInterval = flushInterval
        return options
    }

    /// Collects a stream's results from a task of its own, so that the test can look at them
    /// while the input is paused.
    private final class Collector: Sendable {
        let results = Locked<[IPLookupResult]>([])
        let task: Task<Void, Error>

        init(_ stream: IPLookupStream) {
            let results = results
            task = Task {
                for try await result in stream { results.withLock { $0.append(result) } }
            }
        }

        var ips: [String] { results.withLock { $0.map(\.ip) } }

        /// Waits until `count` results are in, or `seconds` have passed; whether they came.
        func wait(for count: Int, seconds: Double = 5) async throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while results.withLock({ $0.count }) < count, Date() < deadline {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            return results.withLock { $0.count } >= count
        }
    }

    func testResultsReadBeforeAPauseArriveBeforeTheInputGoesOn() async throws {
        answerLikeTheAPI()
        let (input, writer) = AsyncStream.makeStream(of: String.self)
        let collector = Collector(client.lookupStream(input, options: options(flushInterval: 0.05)))
        for ip in ["8.8.8.8", "1.1.1.1", "9.9.9.9"] { writer.yield(ip) }
        let arrived = try await collector.wait(for: 3)
        XCTAssertTrue(arrived, "the results of the lines written were held back while the input paused")
        XCTAssertEqual(collector.ips, ["8.8.8.8", "1.1.1.1", "9.9.9.9"])
        // A second pause, after more input, is just the same.
        for ip in ["4.4.4.4", "10.0.0.1"] { writer.yield(ip) }
        let arrivedAgain = try await collector.wait(for: 5)
        XCTAssertTrue(arrivedAgain)
        writer.finish()
        try await collector.task.value
        XCTAssertEqual(collector.ips, ["8.8.8.8", "1.1.1.1", "9.9.9.9", "4.4.4.4", "10.0.0.1"])
        XCTAssertEqual(bulkRequests.count, 2, "one request for each burst of input")
    }

    func testWithoutAFlushIntervalAChunkWaitsToFill() async throws {
        answerLikeTheAPI()
        let (input, writer) = AsyncStream.makeStream(of: String.self)
        let collector = Collector(client.lookupStream(input, options: options(flushInterval: nil)))
        for ip in ["8.8.8.8", "1.1.1.1", "9.9.9.9"] { writer.yield(ip) }
        let arrived = try await collector.wait(for: 1, seconds: 0.3)
        XCTAssertFalse(arrived, "without a flush interval the chunk waits for more input")
        XCTAssertTrue(sent.isEmpty)
        writer.finish()
        try await collector.task.value
        XCTAssertEqual(collector.ips, ["8.8.8.8", "1.1.1.1", "9.9.9.9"])
    }

    func testAnswersWithoutARequestArriveAtOnceWithALongInterval() async throws {
        answerLikeTheAPI()
        let (input, writer) = AsyncStream.makeStream(of: String.self)
        var options = options(flushInterval: 600)
        options.sendsNonPublicAddresses = false
        let collector = Collector(client.lookupStream(input, options: options))
        writer.yield("10.0.0.1")
        writer.yield("192.168.1.1")
        let arrived = try await collector.wait(for: 2)
        XCTAssertTrue(arrived, "a private address waits for no request")
        XCTAssertTrue(sent.isEmpty)
        writer.finish()
        try await collector.task.value
    }

    func testCancellingWhileTheInputIsPausedEndsTheStreamPromptly() async throws {
        answerLikeTheAPI()
        let (input, writer) = AsyncStream.makeStream(of: String.self)
        // The input never ends: only the cancellation can end the stream.
        let source = PausedAfter(input)
        let collector = Collector(client.lookupStream(source, options: options(flushInterval: 0.05)))
        for ip in ["8.8.8.8", "1.1.1.1", "9.9.9.9"] { writer.yield(ip) }
        let arrived = try await collector.wait(for: 3)
        XCTAssertTrue(arrived)
        let cancelled = Date()
        collector.task.cancel()
        _ = try? await collector.task.value
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 2, "the stream ended without the input")
        writer.finish()
    }

    func testTheReaderReadsNoFurtherAheadThanTheWindowAndItsBuffer() async throws {
        answerLikeTheAPI()
        let pulled = Locked(0)
        let input = CountingAddresses(count: 1_000_000, pulled: pulled)
        var iterator = client.lookupStream(input, options: options(flushInterval: 1, concurrency: 2))
            .makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.ip, "8.0.0.0")
        try await Task.sleep(nanoseconds: 300_000_000)
        let early = pulled.withLock { $0 }
        try await Task.sleep(nanoseconds: 300_000_000)
        let later = pulled.withLock { $0 }
        // The window's 2 chunks and the one handed out, the buffer, the address in the reader's hand.
        XCTAssertLessThanOrEqual(later, 3 * 100 + 100 + 1)
        XCTAssertEqual(early, later, "the reader waits while the buffer is full")
        _ = iterator
    }

    func testAnInputErrorAfterAPauseComesAfterTheResultsReadBeforeIt() async throws {
        answerLikeTheAPI()
        struct InputFailed: Error {}
        let (input, writer) = AsyncThrowingStream.makeStream(of: String.self)
        let collector = Collector(client.lookupStream(input, options: options(flushInterval: 0)))
        writer.yield("8.8.8.8")
        let arrived = try await collector.wait(for: 1)
        XCTAssertTrue(arrived)
        writer.yield("1.1.1.1")
        writer.finish(throwing: InputFailed())
        do {
            try await collector.task.value
            XCTFail("the input's error was not thrown")
        } catch is InputFailed {}
        XCTAssertEqual(collector.ips, ["8.8.8.8", "1.1.1.1"])
    }

    func testManyPausesKeepInputOrder() async throws {
        answerLikeTheAPI()
        let ips = (0..<600).map { "8.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
        let (input, writer) = AsyncStream.makeStream(of: String.self)
        let collector = Collector(client.lookupStream(input, options: options(flushInterval: 0.01, concurrency: 3)))
        var generator = SeededGenerator(seed: 26)
        var written = 0
        while written < ips.count {
            let burst = min(Int.random(in: 1...150, using: &generator), ips.count - written)
            for ip in ips[written..<(written + burst)] { writer.yield(ip) }
            written += burst
            if Bool.random(using: &generator) { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        writer.finish()
        try await collector.task.value
        XCTAssertEqual(collector.ips, ips)
    }

    private var bulkRequests: [MockURLProtocol.Recorded] { sent.filter { $0.url.path == "/bulk" } }
}

/// The addresses of an async stream, and then a pause that only a cancellation ends.
private struct PausedAfter: AsyncSequence, Sendable {
    typealias Element = String
    let addresses: AsyncStream<String>

    init(_ addresses: AsyncStream<String>) {
        self.addresses = addresses
    }

    func makeAsyncIterator() -> Iterator { Iterator(addresses: addresses.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        var addresses: AsyncStream<String>.Iterator

        mutating func next() async throws -> String? {
            if let address = await addresses.next() { return address }
            // The stream was finished: wait for a cancellation, as `tail -f` waits for a write.
            while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
        }
    }
}
