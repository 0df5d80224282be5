#if Valkey
import Foundation
import Synchronization

/// Whether the server is worth an operation: after a failure, one attempt a retry interval,
/// until one succeeds. Reports only the changes between available and unavailable.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class StoreHealth: Sendable {
    private struct State {
        var isDown = false
        var nextAttempt: ContinuousClock.Instant?
    }
    private let state = Mutex(State())
    private let retryInterval: Duration

    init(retryInterval: Duration) {
        self.retryInterval = retryInterval
    }

    /// Whether to try the server now: always while it is up; while it is down, once per
    /// interval (this call takes the attempt, so concurrent callers do not pile onto it).
    func mayTry(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard state.isDown else { return true }
            guard let next = state.nextAttempt, now >= next else { return false }
            state.nextAttempt = now + retryInterval
            return true
        }
    }

    /// Records a success; true when the server was down until now.
    func succeeded() -> Bool {
        state.withLock { state in
            defer { state.isDown = false }
            return state.isDown
        }
    }

    /// Records a failure; true when the server was up until now.
    func failed(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            state.nextAttempt = now + retryInterval
            defer { state.isDown = true }
            return !state.isDown
        }
    }
}
#endif
