/// The addresses of an input read by a task of its own, at most `capacity` ahead, so that the
/// reader can take what has come without waiting for more: `CacheFirstLookup` on an input that
/// pauses (`tail -f access.log | ipdata bulk`).
///
/// The reading task waits while `capacity` addresses are held, so memory stays bounded; neither
/// side polls: each waits on a continuation that the other resumes. Closing it (or dropping it)
/// ends the reading task at its next address.
final class AddressPrefetch: Sendable {
    /// What `take(waiting:)` found.
    enum Taken: Equatable {
        case address(String)
        /// Nothing has come yet (`take(waiting: false)` only).
        case nothingYet
        /// The input ended.
        case ended
    }

    private struct State {
        var addresses: [String] = []
        var head = 0
        var ended = false
        var error: (any Error)?
        var isClosed = false
        var taker: CheckedContinuation<Void, Never>?
        var putter: CheckedContinuation<Void, Never>?

        var count: Int { addresses.count - head }
    }

    let capacity: Int
    private let state = Locked(State())
    private let reader = Locked<Task<Void, Never>?>(nil)

    /// Starts reading `addresses`.
    init<Addresses: AsyncSequence & Sendable>(_ addresses: Addresses, capacity: Int)
    where Addresses.Element == String {
        self.capacity = max(1, capacity)
        let state = state
        let capacity = self.capacity
        reader.withLock {
            $0 = Task {
                do {
                    for try await address in addresses {
                        guard await Self.put(address, into: state, capacity: capacity) else { return }
                    }
                    Self.finish(state, error: nil)
                } catch {
                    Self.finish(state, error: error)
                }
            }
        }
    }

    deinit {
        close()
    }

    /// The next address; with `waiting`, waits for it or the end of the input, else returns
    /// `.nothingYet` when none has come. Throws what the input threw, after the addresses read
    /// before it.
    func take(waiting: Bool) async throws -> Taken {
        while true {
            let found = try state.withLock { state -> Taken? in
                if state.count > 0 {
                    let address = state.addresses[state.head]
                    state.head += 1
                    if state.head >= 256, state.head * 2 >= state.addresses.count {
                        state.addresses.removeFirst(state.head)
                        state.head = 0
                    }
                    state.putter?.resume()
                    state.putter = nil
                    return .address(address)
                }
                if state.ended {
                    if let error = state.error {
                        state.error = nil
                        throw error
                    }
                    return .ended
                }
                return waiting ? nil : .nothingYet
            }
            if let found { return found }
            if Task.isCancelled { return .ended }
            let state = state
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLock { state in
                        if state.count > 0 || state.ended || Task.isCancelled {
                            continuation.resume()
                        } else {
                            state.taker = continuation
                        }
                    }
                }
            } onCancel: {
                state.withLock { state in
                    state.taker?.resume()
                    state.taker = nil
                }
            }
        }
    }

    /// Stops reading: the reading task ends at its next address.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.putter?.resume()
            state.putter = nil
        }
        reader.withLock { $0?.cancel() }
    }

    private static func put(_ address: String, into state: Locked<State>, capacity: Int) async -> Bool {
        while true {
            let added = state.withLock { state -> Bool? in
                if state.isClosed { return false }
                guard state.count < capacity else { return nil }
                state.addresses.append(address)
                state.taker?.resume()
                state.taker = nil
                return true
            }
            if let added { return added }
            if Task.isCancelled { return false }
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.isClosed || state.count < capacity {
                        continuation.resume()
                    } else {
                        state.putter = continuation
                    }
                }
            }
        }
    }

    private static func finish(_ state: Locked<State>, error: (any Error)?) {
        state.withLock { state in
            state.ended = true
            state.error = error
            state.taker?.resume()
            state.taker = nil
        }
    }
}
