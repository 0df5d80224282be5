import Dispatch

/// The addresses that a stream's reader task has read and its pipeline has not taken yet, at most
/// `capacity` of them: the reader waits while it is full, so memory stays bounded, and the
/// pipeline waits for the next address until a deadline (`LookupStreamOptions.flushInterval`).
///
/// One reader task puts, one pipeline takes. Neither waits by polling: each waits on a
/// continuation that the other side, a timer or a cancellation resumes.
final class AddressBuffer: Sendable {
    /// What `take(until:wakes:)` found.
    enum Taken {
        case address(String)
        /// The input ended, with what it threw if it did.
        case ended((any Error)?)
        /// Nothing came before the deadline.
        case timedOut
        /// A lookup of the stream finished (`wake()`), or the task taking was cancelled.
        case woken
    }

    private struct Waiter {
        let id: Int
        /// Whether `wake()` resumes it.
        let wakes: Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var addresses: [String] = []
        var head = 0
        var ended = false
        var error: (any Error)?
        /// The pipeline has stopped: the reader puts no more.
        var isClosed = false
        /// `wake()` was called since the last take that it ended.
        var isWoken = false
        var taker: Waiter?
        var putter: CheckedContinuation<Void, Never>?
        var lastWaiterID = 0

        var count: Int { addresses.count - head }

        func hasNews(for wakes: Bool) -> Bool {
            count > 0 || ended || (wakes && isWoken)
        }

        mutating func resumeTaker() {
            taker?.continuation.resume()
            taker = nil
        }

        mutating func resumePutter() {
            putter?.resume()
            putter = nil
        }
    }

    /// The most addresses held.
    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    // MARK: The reader's side

    /// Adds `address`, waiting while the buffer is full; false once the pipeline has stopped
    /// (or the reader's task was cancelled), when the reader should read no more.
    func put(_ address: String) async -> Bool {
        while true {
            let added = state.withLock { state -> Bool? in
                if state.isClosed { return false }
                guard state.count < capacity else { return nil }
                state.addresses.append(address)
                state.resumeTaker()
                return true
            }
            if let added { return added }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLock { state in
                        if state.isClosed || state.count < capacity || Task.isCancelled {
                            continuation.resume()
                        } else {
                            state.putter = continuation
                        }
                    }
                }
            } onCancel: {
                close()
            }
        }
    }

    /// Ends the input, after the addresses put before; `error` is what it threw, if it did.
    func finish(throwing error: (any Error)?) {
        state.withLock { state in
            state.ended = true
            state.error = error
            state.resumeTaker()
        }
    }

    // MARK: The pipeline's side

    /// The next address; or the end of the input; or, when `deadline` passes first, `.timedOut`
    /// (nil: no deadline). With `wakes`, it also returns `.woken` when `wake()` was called since
    /// the last such return. A cancelled task gets `.woken` at once.
    func take(until deadline: DispatchTime?, wakes: Bool) async -> Taken {
        while true {
            if Task.isCancelled { return .woken }
            let found = state.withLock { state -> Taken? in
                if state.count > 0 {
                    let address = state.addresses[state.head]
                    state.head += 1
                    if state.head >= 256, state.head * 2 >= state.addresses.count {
                        state.addresses.removeFirst(state.head)
                        state.head = 0
                    }
                    state.resumePutter()
                    return .address(address)
                }
                if state.ended { return .ended(state.error) }
                if wakes, state.isWoken {
                    state.isWoken = false
                    return .woken
                }
                if let deadline, DispatchTime.now() >= deadline { return .timedOut }
                return nil
            }
            if let found { return found }
            await wait(until: deadline, wakes: wakes)
        }
    }

    /// Waits until there is news for a take, the deadline passes or the task is cancelled.
    private func wait(until deadline: DispatchTime?, wakes: Bool) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let id = state.withLock { state -> Int? in
                    guard !state.hasNews(for: wakes), !Task.isCancelled else { return nil }
                    state.lastWaiterID += 1
                    state.taker = Waiter(id: state.lastWaiterID, wakes: wakes, continuation: continuation)
                    return state.lastWaiterID
                }
                guard let id else { return continuation.resume() }
                guard let deadline else { return }
                DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in
                    state.withLock { state in
                        if state.taker?.id == id { state.resumeTaker() }
                    }
                }
            }
        } onCancel: {
            state.withLock { $0.resumeTaker() }
        }
    }

    /// Tells a take that waits with `wakes` that something else may be ready: a lookup finished.
    func wake() {
        state.withLock { state in
            state.isWoken = true
            if state.taker?.wakes == true { state.resumeTaker() }
        }
    }

    /// Stops the reader: what it puts from now on is dropped, and a put that waits returns false.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.addresses = []
            state.head = 0
            state.resumePutter()
        }
    }
}
