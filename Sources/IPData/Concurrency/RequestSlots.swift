/// A bounded number of requests in flight, and a first-come queue for the others.
///
/// A request waits here, in the client, rather than inside URLSession: libcurl opens at most six
/// HTTP/1.1 connections per host and queues the rest, a request's timeout runs while it waits
/// there, and that queue is not first-come, so a thousand concurrent lookups over HTTP/1.1 would
/// time out unanswered. The limit is never more than the connections the session opens a host
/// (see `URLSessionTransport.concurrentRequests`). A waiting call whose task is cancelled leaves
/// the queue at once.
final class RequestSlots: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters cancelled before they were queued.
        var cancelled: Set<UInt64> = []
    }

    let limit: Int
    private let state: Locked<State>

    init(limit: Int) {
        self.limit = max(1, limit)
        self.state = Locked(State(available: max(1, limit)))
    }

    /// Takes a slot, waiting for one if none is free; throws `CancellationError` when the task
    /// is cancelled while it waits.
    func acquire() async throws {
        let id: UInt64? = state.withLock { state in
            if state.available > 0 {
                state.available -= 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if state.cancelled.remove(id) != nil { return false }
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives a slot back: to the first waiter, else to the pool.
    func release() {
        let next = state.withLock { state -> Waiter? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
