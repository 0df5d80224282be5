import Foundation
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
        /// The address in canonical form, when it is one (the key of `admit(_:)`).
        var key: String?
        /// The address was read before and was not sent again: its record is the earlier answer.
        var isDuplicate = false
        /// The host name the address was resolved from (`ipdata bulk` of names): its record names it.
        var host: String?
    }

    /// What the writer keeps of an answer, for the same address read again.
    struct Answer {
        let record: Record
        /// The bytes the API sent, when the record was written from them.
        var json: Data?
        /// Whether `json` has no whitespace between its tokens (an answer from the disk cache).
        var isCompact = false
        let failed: Bool
        let status: ExitStatus
        /// The API's refusal of a private or reserved address, answered without a request.
        var answeredLocally = false
    }

    /// How many answers are kept for addresses read again (the most recent ones), besides those a
    /// waiting duplicate needs: each is one record, so memory stays bounded.
    static let keptAnswers = 1_024
    /// The most duplicates waiting for their first answer at once; past it an address is sent
    /// again rather than held, so a long run of one address cannot fill memory.
    static let waitingDuplicates = 10_000

    /// What the reader left unread after a stop.
    enum Unread: Sendable, Equatable {
        /// The reader has not stopped, or has not reached its next address since.
        case unknown
        /// This many addresses were never read.
        case counted(Int)
        /// The rest of a pipe was not read: it cannot be counted without waiting for its end.
        case uncounted
    }

    /// What the ledger holds of one address: its entries not yet written (the first and its
    /// duplicates), and its answer, when kept. An address with neither is not held.
    private struct Address {
        var unwritten = 0
        var answer: Answer?
    }

    private struct State {
        var origins: [Origin] = []
        /// Origins appended so far, taken or not.
        var appended = 0
        var head = 0
        var isStopped = false
        var unread = Unread.unknown
        /// The addresses with entries not yet written or an answer kept: one table, so that
        /// each step of an address costs one look-up.
        var addresses: [String: Address] = [:]
        var waitingDuplicates = 0
        /// How many of `addresses` keep an answer, and the order they came in (oldest first,
        /// from `orderHead`).
        var answersKept = 0
        var answerOrder: [String] = []
        var orderHead = 0
        /// Addresses answered more than once, that is sent once and written again.
        var duplicatesAnswered = 0
    }

    private let state = Locked(State())

    /// Whether a repeat of an address whose record is already written is held for that answer
    /// (true, the default), or read as a new address (answered by the disk cache, or sent
    /// again): for input that may pause (`tail -f`), where a held repeat would wait for the next
    /// address's answer. A repeat of an address whose record is still to be written is held
    /// either way.
    let holdsRepeatsOfWrittenAddresses: Bool

    init(holdsRepeatsOfWrittenAddresses: Bool = true) {
        self.holdsRepeatsOfWrittenAddresses = holdsRepeatsOfWrittenAddresses
    }

    /// Records the origin of the next address read.
    func append(_ origin: Origin) {
        state.withLock { state in
            state.origins.append(origin)
            state.appended += 1
        }
    }

    /// How many origins were appended so far: the position of the next address's record.
    var appended: Int { state.withLock { $0.appended } }

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

    // MARK: Duplicates

    /// Whether the address `key` was read before and its answer will be at hand when its record
    /// is due (still to be written, or kept): then it is not sent again. Counts the entry.
    func admit(_ key: String) -> Bool {
        let holdsWritten = holdsRepeatsOfWrittenAddresses
        return state.withLock { state in
            let waiting = state.waitingDuplicates
            let isDuplicate = { (address: inout Address) -> Bool in
                defer { address.unwritten += 1 }
                let isHeld = address.unwritten > 0 || (holdsWritten && address.answer != nil)
                return isHeld && waiting < Self.waitingDuplicates
            }(&state.addresses[key, default: Address()])
            if isDuplicate { state.waitingDuplicates += 1 }
            return isDuplicate
        }
    }

    /// Records the answer for `key` as its entry is written, keeping it for duplicates; nil when
    /// there is none to keep (the run stopped on it).
    func answered(_ key: String, with answer: Answer?) {
        state.withLock { state in
            guard let answer else {
                Self.written(key, &state)
                return
            }
            let isNew = { (address: inout Address) -> Bool in
                address.unwritten = max(0, address.unwritten - 1)
                defer { address.answer = answer }
                return address.answer == nil
            }(&state.addresses[key, default: Address(unwritten: 1)])
            if isNew {
                state.answersKept += 1
                state.answerOrder.append(key)
            }
            Self.evict(&state)
        }
    }

    /// The answer for a duplicate of `key`, as its record is due (nil when the first was never
    /// answered: the run stopped).
    func answerForDuplicate(of key: String) -> Answer? {
        state.withLock { state in
            state.waitingDuplicates -= 1
            let answer = Self.written(key, &state)
            if answer != nil { state.duplicatesAnswered += 1 }
            Self.evict(&state)
            return answer
        }
    }

    /// Addresses written from an earlier answer instead of a request.
    var duplicatesAnswered: Int { state.withLock { $0.duplicatesAnswered } }

    /// Counts one entry of `key` written, and returns its answer, if kept; an address left with
    /// neither is let go.
    @discardableResult
    private static func written(_ key: String, _ state: inout State) -> Answer? {
        guard var address = state.addresses[key] else { return nil }
        address.unwritten = max(0, address.unwritten - 1)
        if address.unwritten == 0, address.answer == nil {
            state.addresses[key] = nil
        } else {
            state.addresses[key] = address
        }
        return address.answer
    }

    /// Drops the oldest answers past `keptAnswers`, except those a duplicate still waits for
    /// (moved to the back of the order instead).
    private static func evict(_ state: inout State) {
        var looked = 0
        let waiting = state.answerOrder.count - state.orderHead
        while state.answersKept > keptAnswers, looked < waiting {
            let key = state.answerOrder[state.orderHead]
            state.orderHead += 1
            looked += 1
            // One look-up of the key for either outcome.
            let index = state.addresses.index(forKey: key)
            if let index, state.addresses.values[index].unwritten > 0 {
                state.answerOrder.append(key)
            } else {
                if let index { state.addresses.remove(at: index) }
                state.answersKept -= 1
            }
        }
        if state.orderHead >= keptAnswers, state.orderHead * 2 >= state.answerOrder.count {
            state.answerOrder.removeFirst(state.orderHead)
            state.orderHead = 0
        }
    }

    /// The next entry to write, if it is a duplicate (its first answer is already written).
    func takeDuplicate() -> Origin? {
        state.withLock { state in
            guard state.head < state.origins.count, state.origins[state.head].isDuplicate else { return nil }
            defer { state.head += 1 }
            return state.origins[state.head]
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
