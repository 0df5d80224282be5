import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Concurrent identical requests share one; cancellation still works per caller.
final class RequestCoalescerTests: XCTestCase {
    /// An operation the test finishes by hand, counting how often it was started.
    private final class Gate: Sendable {
        private let state = Locked((starts: 0, waiting: [CheckedContinuation<Int, Error>]()))

        var starts: Int { state.withLock { $0.starts } }

        func operation() async throws -> Int {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    state.withLock {
                        $0.starts += 1
                        $0.waiting.append(continuation)
                    }
                }
            } onCancel: {
                self.finish(with: .failure(CancellationError()))
            }
        }

        func finish(with result: Result<Int, Error>) {
            let waiting = state.withLock { state -> [CheckedContinuation<Int, Error>] in
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume(with: result) }
        }
    }

    private func waitUntil(_ condition: @escaping () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertTrue(condition(), "condition not reached in 5 s")
    }

    func testConcurrentCallersShareOneOperation() async throws {
        let coalescer = RequestCoalescer<Int>()
        let gate = Gate()
        let callers = (0..<20).map { _ in
            Task { try await coalescer.value(forKey: "k") { try await gate.operation() } }
        }
        try await waitUntil { gate.starts == 1 && coalescer.waiterCount(forKey: "k") == 19 }
        gate.finish(with: .success(42))
        for caller in callers {
            let value = try await caller.value
            XCTAssertEqual(value, 42)
        }
        XCTAssertEqual(gate.starts, 1)
    }

    func testDifferentKeysDoNotShare() async throws {
        let coalescer = RequestCoalescer<Int>()
        async let first = coalescer.value(forKey: "a") { 1 }
        async let second = coalescer.value(forKey: "b") { 2 }
        let values = try await [first, second]
        XCTAssertEqual(values, [1, 2])
    }

    func testACancelledWaiterLeavesAtOnceWhileTheRequestGoesOn() async throws {
        let coalescer = RequestCoalescer<Int>()
        let gate = Gate()
        let leader = Task { try await coalescer.value(forKey: "k") { try await gate.operation() } }
        try await waitUntil { gate.starts == 1 }
        let leaving = Task { try await coalescer.value(forKey: "k") { try await gate.operation() } }
        try await waitUntil { coalescer.waiterCount(forKey: "k") == 1 }
        leaving.cancel()
        do {
            _ = try await leaving.value
            XCTFail("a cancelled caller got a value")
        } catch IPDataError.networkError(let error as URLError) {
            XCTAssertEqual(error.code, .cancelled)
        }
        gate.finish(with: .success(7))
        let value = try await leader.value
        XCTAssertEqual(value, 7)
        XCTAssertEqual(gate.starts, 1)
    }

    func testACancelledLeaderCancelsItsRequestAndTheWaitersAskAgain() async throws {
        let coalescer = RequestCoalescer<Int>()
        let gate = Gate()
        let leader = Task { try await coalescer.value(forKey: "k") { try await gate.operation() } }
        try await waitUntil { gate.starts == 1 }
        let waiter = Task { try await coalescer.value(forKey: "k") { try await gate.operation() } }
        try await waitUntil { coalescer.waiterCount(forKey: "k") == 1 }
        leader.cancel()
        do {
            _ = try await leader.value
            XCTFail("a cancelled leader got a value")
        } catch is CancellationError {}
        // The waiter was not cancelled: it starts a request of its own.
        try await waitUntil { gate.starts == 2 }
        gate.finish(with: .success(9))
        let value = try await waiter.value
        XCTAssertEqual(value, 9)
    }

    func testFailuresAreSharedToo() async throws {
        let coalescer = RequestCoalescer<Int>()
        let gate = Gate()
        let callers = (0..<5).map { _ in
            Task { try await coalescer.value(forKey: "k") { try await gate.operation() } }
        }
        try await waitUntil { gate.starts == 1 && coalescer.waiterCount(forKey: "k") == 4 }
        gate.finish(with: .failure(IPDataError.forbidden("quota")))
        for caller in callers {
            do {
                _ = try await caller.value
                XCTFail("expected the shared failure")
            } catch IPDataError.forbidden(let message) {
                XCTAssertEqual(message, "quota")
            }
        }
    }
}
