import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one request for any number of concurrent callers that ask for the same thing.
///
/// The first caller for a key (the leader) runs the request in its own task; callers that arrive
/// while it runs wait for its answer instead of sending their own. Cancellation stays per caller:
/// a waiting caller whose task is cancelled stops waiting at once (`URLError.cancelled`), and a
/// cancelled leader cancels its own request, after which the callers still waiting start afresh.
final class RequestCoalescer<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Value, Error>

    /// One request in flight and the callers waiting for it.
    private final class Flight: Sendable {
        struct State {
            var waiters: [UInt64: Waiter] = [:]
            /// Set once the flight takes no more waiters.
            var isClosed = false
        }
        let state = Locked(State())
    }

    /// The leader gave up before answering: the waiter starts again.
    private struct LeaderCancelled: Error {}

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

    /// The value of `operation` for `key`, shared with every concurrent caller of the same key;
    /// `shared` is called, in the caller's task, when the caller got another's value or error.
    func value(
        forKey key: String, shared: (() -> Void)? = nil, operation: () async throws -> Value
    ) async throws -> Value {
        while true {
            let (flight, waiter, isLeader) = registry.withLock { registry -> (Flight, UInt64, Bool) in
                registry.nextWaiter += 1
                if let flight = registry.flights[key] { return (flight, registry.nextWaiter, false) }
                let flight = Flight()
                registry.flights[key] = flight
                return (flight, registry.nextWaiter, true)
            }
            if isLeader { return try await lead(flight, key: key, operation: operation) }
            do {
                let value = try await wait(for: flight, waiter: waiter)
                shared?()
                return value
            } catch is LeaderCancelled {
                continue
            } catch {
                // The leader's failure, unless this caller's own task was cancelled.
                if !Task.isCancelled { shared?() }
                throw error
            }
        }
    }

    private func lead(_ flight: Flight, key: String, operation: () async throws -> Value) async throws -> Value {
        do {
            let value = try await operation()
            for waiter in close(flight, key: key) { waiter.resume(returning: value) }
            return value
        } catch {
            // A cancelled leader's failure is its own: the others ask again.
            let outcome: Error = Task.isCancelled ? LeaderCancelled() : error
            for waiter in close(flight, key: key) { waiter.resume(throwing: outcome) }
            throw error
        }
    }

    private func wait(for flight: Flight, waiter: UInt64) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let outcome = flight.state.withLock { state -> Error? in
                    if Task.isCancelled { return IPDataError.networkError(URLError(.cancelled)) }
                    if state.isClosed { return LeaderCancelled() }  // answered already: ask again
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let outcome { continuation.resume(throwing: outcome) }
            }
        } onCancel: {
            let continuation = flight.state.withLock { $0.waiters.removeValue(forKey: waiter) }
            continuation?.resume(throwing: IPDataError.networkError(URLError(.cancelled)))
        }
    }

    /// Takes the flight out of service and returns whoever still waits for it.
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
}
