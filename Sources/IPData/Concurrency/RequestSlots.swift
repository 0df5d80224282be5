/// A bounded number of requests in flight, and a first-come queue for the others.
///
/// A request waits here, in the client, rather than inside URLSession: libcurl opens at most six
/// HTTP/1.1 connections per host and queues the rest, a request's timeout runs while it waits
/// there, and that queue is not first-come, so a thousand concurrent lookups over HTTP/1.1 would
/// time out unanswered. The limit starts at the connections the session opens a host and rises
/// only while its answers come over HTTP/2 (see `ConnectionProtocolWatch`). A waiting call whose
/// task is cancelled leaves the queue at once.
final class RequestSlots: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var limit: Int
        var inFlight = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters cancelled before they were queued.
        var cancelled: Set<UInt64> = []

        var hasRoom: Bool { inFlight < limit }

        /// Hands free slots to the first waiters, and returns them to be resumed.
        mutating func admitWaiters() -> [Waiter] {
            var admitted: [Waiter] = []
            while hasRoom, !waiters.isEmpty {
                inFlight += 1
                admitted.append(waiters.removeFirst())
            }
            return admitted
        }
    }

    private let state: Locked<State>

    init(limit: Int) {
        self.state = Locked(State(limit: max(1, limit)))
    }

    /// The most requests in flight now.
    var limit: Int { state.withLock { $0.limit } }

    /// Changes the most requests in flight: a higher limit lets waiters go at once; a lower one
    /// lets no new request go until fewer than it are in flight.
    func setLimit(_ limit: Int) {
        let admitted = state.withLock { state -> [Waiter] in
            state.limit = max(1, limit)
            return state.admitWaiters()
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    /// Takes a slot, waiting for one if none is free; throws `CancellationError` when the task
    /// is cancelled while it waits.
    func acquire() async throws {
        let id: UInt64? = state.withLock { state in
            if state.hasRoom, state.waiters.isEmpty {
                state.inFlight += 1
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
                    if state.hasRoom, state.waiters.isEmpty {
                        state.inFlight += 1
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

    /// Gives a slot back, and lets the first waiters go if there is room for them.
    func release() {
        let admitted = state.withLock { state -> [Waiter] in
            state.inFlight -= 1
            return state.admitWaiters()
        }
        for waiter in admitted { waiter.continuation.resume() }
    }
}
