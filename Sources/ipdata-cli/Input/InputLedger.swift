import IPData

/// Where every address of a run came from, in the order it was read, shared by the reader of the
/// input (`AddressReader`, which appends) and the writer of the results (`StreamingLookup`, which
/// takes one origin per result: a lookup stream answers in input order, one result an address).
///
/// It also carries the run's stop: once `stop()` is called the reader hands out no more
/// addresses, and counts what it leaves unread, when it can.
final class InputLedger: Sendable {
    /// Where one address came from.
    struct Origin: Sendable, Equatable {
        /// The input's name: its path, or `standard input`.
        let input: String
        /// Its position among the inputs, from 0.
        let inputIndex: Int
        /// The line it starts on, from 1.
        let line: Int
        /// Why the line is not an address, when the reader can tell (an unbalanced quote, a row
        /// too short for the column); the result is then an error record with this text.
        let problem: String?
    }

    /// What the reader left unread after a stop.
    enum Unread: Sendable, Equatable {
        /// The reader has not stopped, or has not reached its next address since.
        case unknown
        /// This many addresses were never read.
        case counted(Int)
        /// The rest of a pipe was not read: it cannot be counted without waiting for its end.
        case uncounted
    }

    private struct State {
        var origins: [Origin] = []
        var head = 0
        var isStopped = false
        var unread = Unread.unknown
    }

    private let state = Locked(State())

    /// Records the origin of the next address read.
    func append(_ origin: Origin) {
        state.withLock { $0.origins.append(origin) }
    }

    /// The origin of the oldest address whose result has not been written yet.
    func takeFirst() -> Origin? {
        state.withLock { state in
            guard state.head < state.origins.count else { return nil }
            let origin = state.origins[state.head]
            state.head += 1
            if state.head >= 1024, state.head * 2 >= state.origins.count {
                state.origins.removeFirst(state.head)
                state.head = 0
            }
            return origin
        }
    }

    /// Tells the reader to hand out no more addresses.
    func stop() {
        state.withLock { $0.isStopped = true }
    }

    var isStopped: Bool { state.withLock { $0.isStopped } }

    /// Addresses read but whose results were not taken: they were never looked up.
    var readButNotTaken: Int { state.withLock { $0.origins.count - $0.head } }

    /// What the reader left unread after the stop.
    var unread: Unread {
        get { state.withLock { $0.unread } }
        set { state.withLock { $0.unread = newValue } }
    }
}
