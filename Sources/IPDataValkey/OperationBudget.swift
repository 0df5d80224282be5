#if Valkey
import Foundation
import IPData
import Synchronization

/// Why an operation on the server gave no answer.
enum OperationFailure: Error, Equatable, CustomStringConvertible {
    /// No answer within the budget.
    case timedOut(Duration)
    /// The operation threw (no connection, a reply that is not Valkey's, …).
    case failed(String)
    /// The caller's task was cancelled: nothing is wrong with the server.
    case callerCancelled

    var description: String {
        switch self {
        case .timedOut(let budget): "no answer within \(budget)"
        case .failed(let reason): reason
        case .callerCancelled: "cancelled"
        }
    }
}

/// Runs an operation for at most a budget of time.
///
/// The operation runs in a task of its own, and a timer in another; the caller resumes with
/// whichever ends first, so a server that never answers holds it for the budget and no longer,
/// even when the operation does not stop at once. The timer is cancelled when the operation
/// ends first. An operation past the budget is not: cancelling it would make valkey-swift close
/// its connection, failing the other operations on it, which a busy host then pays for again.
/// It ends by itself (a write still lands); a caller's cancellation cancels it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
enum OperationBudget {
    /// The first outcome, and the caller waiting for it.
    private final class Gate<Value: Sendable>: Sendable {
        private struct State {
            var outcome: Result<Value, OperationFailure>?
            var waiter: CheckedContinuation<Result<Value, OperationFailure>, Never>?
        }
        private let state = Mutex(State())

        /// Settles the gate with `outcome` unless it is settled already.
        func settle(_ outcome: Result<Value, OperationFailure>) {
            let waiter = state.withLock { state -> CheckedContinuation<Result<Value, OperationFailure>, Never>? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: outcome)
        }

        func wait() async -> Result<Value, OperationFailure> {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Result<Value, OperationFailure>? in
                    if state.outcome == nil { state.waiter = continuation }
                    return state.outcome
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }

    static func run<Value: Sendable>(
        within budget: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async -> Result<Value, OperationFailure> {
        let gate = Gate<Value>()
        let work = Task {
            do {
                gate.settle(.success(try await operation()))
            } catch {
                gate.settle(.failure(.failed(String(describing: error))))
            }
        }
        let timer = Task {
            // A cancelled sleep is the operation's end (or the caller's), which settled the gate.
            guard (try? await Task.sleep(for: budget)) != nil else { return }
            gate.settle(.failure(.timedOut(budget)))
        }
        let outcome = await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: {
            gate.settle(.failure(.callerCancelled))
        }
        timer.cancel()
        // Past the budget the operation goes on and ends by itself: cancelling it would close
        // its connection, which a busy machine then pays for again in every operation after.
        if case .failure(.timedOut) = outcome {} else { work.cancel() }
        return outcome
    }
}
#endif
