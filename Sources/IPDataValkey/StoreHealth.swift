#if Valkey
import Foundation
import Synchronization

/// Whether the server is worth an operation, on evidence: it becomes unavailable when an
/// operation fails outright (no connection, a reply that is not Valkey's), or when operations
/// have only timed out, at least `timeoutsBeforeUnavailable` of them, for `timeoutWindow` (a
/// second).
/// One slow operation on a busy machine is a miss for its lookup alone. While unavailable, one
/// attempt a retry interval, until one succeeds. Reports only the changes of state.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class StoreHealth: Sendable {
    /// Consecutive timeouts, with no success among them, that can make the server unavailable.
    static let timeoutsBeforeUnavailable = 3
    /// How long operations must have done nothing but time out for the server to be unavailable.
    static let timeoutWindow = Duration.seconds(1)

    private struct State {
        var isDown = false
        var nextAttempt: ContinuousClock.Instant?
        /// Timeouts since the last success, and when the first of them ended.
        var timeouts = 0
        var firstTimeout: ContinuousClock.Instant?
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
            defer { state = State() }
            return state.isDown
        }
    }

    /// Records a failure; true when it makes the server unavailable, which it was not until now.
    func failed(_ failure: OperationFailure, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            if state.isDown {
                state.nextAttempt = now + retryInterval
                return false
            }
            if case .timedOut = failure {
                state.timeouts += 1
                let first = state.firstTimeout ?? now
                state.firstTimeout = first
                guard state.timeouts >= Self.timeoutsBeforeUnavailable, now - first >= Self.timeoutWindow else {
                    return false
                }
            }
            state = State(isDown: true, nextAttempt: now + retryInterval)
            return true
        }
    }
}
#endif
