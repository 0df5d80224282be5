import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one request for any number of concurrent callers that ask for the same thing.
///
/// The first caller for a key starts the request; callers that arrive while it runs wait for its
/// answer instead of sending their own. A caller whose task is cancelled stops waiting at once
/// (`URLError.cancelled`); when the last waiting caller has gone, the request itself is cancelled,
/// so cancelling the only caller still cancels its HTTP request.
final class RequestCoalescer<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Value, Error>

    /// One request in flight and the callers waiting for it.
    private final class Flight: Sendable {
        struct State {
            var waiters: [UInt64: Waiter] = [:]
            var task: Task<Void, Never>?
            /// Set once the flight takes no more waiters: answered, or abandoned by all of them.
            var isClosed = false
        }
        let state = Locked(State())
    }

    /// The flight closed before this caller joined it; the caller starts again.
    private struct FlightClosed: Error {}

    private enum JoinOutcome { case joined, cancelled, closed }

    private struct Registry {
        var flights: [String: Flight] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let registry = Locked(Registry())

    /// How many callers wait for the request of `key` (tests watch callers join).
    func waiterCount(forKey key: String) -> Int {
        guard let flight = registry.withLock({ $0.flights[key] }) else { return 0 }
        return flight.state.withLock { $0.waiters.count }
    }

    /// The value of `operation` for `key`, shared with every concurrent caller of the same key.
    func value(forKey key: String, operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        while true {
            let (flight, waiter, isNew) = registry.withLock { registry -> (Flight, UInt64, Bool) in
                registry.nextWaiter += 1
                if let flight = registry.flights[key] { return (flight, registry.nextWaiter, false) }
                let flight = Flight()
                registry.flights[key] = flight
                return (flight, registry.nextWaiter, true)
            }
            do {
                return try await join(flight, key: key, waiter: waiter, isNew: isNew, operation: operation)
            } catch is FlightClosed {
                continue
            }
        }
    }

    private func join(
        _ flight: Flight, key: String, waiter: UInt64, isNew: Bool,
        operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let outcome = flight.state.withLock { state -> JoinOutcome in
                    if Task.isCancelled { return .cancelled }
                    if state.isClosed { return .closed }
                    state.waiters[waiter] = continuation
                    return .joined
                }
                switch outcome {
                case .joined:
                    if isNew { start(flight, key: key, operation: operation) }
                case .cancelled:
                    continuation.resume(throwing: IPDataError.networkError(URLError(.cancelled)))
                    if isNew { close(flight, key: key) }
                case .closed:
                    continuation.resume(throwing: FlightClosed())
                }
            }
        } onCancel: {
            leave(flight, key: key, waiter: waiter)
        }
    }

    private func start(_ flight: Flight, key: String, operation: @escaping @Sendable () async throws -> Value) {
        let task = Task {
            let result: Result<Value, Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            let waiters = close(flight, key: key)
            for waiter in waiters { waiter.resume(with: result) }
        }
        let abandonedAlready = flight.state.withLock { state -> Bool in
            state.task = task
            return state.isClosed
        }
        // Every waiter left before the task was recorded: nobody wants its answer.
        if abandonedAlready { task.cancel() }
    }

    /// Takes the flight out of service and returns whoever still waits for it.
    @discardableResult
    private func close(_ flight: Flight, key: String) -> [Waiter] {
        registry.withLock { registry in
            if registry.flights[key] === flight { registry.flights[key] = nil }
        }
        return flight.state.withLock { state -> [Waiter] in
            state.isClosed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
    }

    private func leave(_ flight: Flight, key: String, waiter: UInt64) {
        let (continuation, abandoned) = flight.state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            let continuation = state.waiters.removeValue(forKey: waiter)
            guard continuation != nil, state.waiters.isEmpty, !state.isClosed else { return (continuation, nil) }
            // Nobody waits any more: close the flight (a newcomer starts afresh) and cancel it.
            state.isClosed = true
            return (continuation, state.task)
        }
        continuation?.resume(throwing: IPDataError.networkError(URLError(.cancelled)))
        guard let abandoned else { return }
        registry.withLock { registry in
            if registry.flights[key] === flight { registry.flights[key] = nil }
        }
        abandoned.cancel()
    }
}
