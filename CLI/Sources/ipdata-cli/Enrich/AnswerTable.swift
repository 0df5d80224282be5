/// The answers of the addresses `ipdata enrich` has read, one entry per distinct address, shared
/// by every line that holds it: the one place that decides whether an address is sent, and that
/// holds its answer.
///
/// An address is sent only when the table holds neither its answer nor a lookup of it in flight.
/// Each line waiting to be written pins the entries of its addresses (a count of references)
/// until it is written, so an answer that a line still needs is never dropped, however far apart
/// its repeats are. Of the answers no line needs, the `capacity` most recently used are kept for
/// later repeats, and older ones are dropped (least recently used first). So the table holds at
/// most the entries of the lines waiting, plus `capacity`.
struct AnswerTable<Answer: Sendable>: Sendable {
    private struct Entry {
        /// nil while the lookup is in flight.
        var answer: Answer?
        /// How many lines waiting hold the address.
        var pins = 0
        /// The neighbours in the list of unpinned answers.
        var older: String?
        var newer: String?
    }

    /// The most answers kept that no line waiting needs.
    let capacity: Int
    private var entries: [String: Entry] = [:]
    /// The ends of the list of unpinned answers, which `release(_:)` fills at the newest end.
    private var newest: String?
    private var oldest: String?
    /// How many answers no line waiting needs.
    private(set) var unpinnedCount = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many entries the table holds, pinned or not.
    var count: Int { entries.count }

    /// Pins `key`'s entry for one more line waiting, and returns true when its address must be
    /// sent: the table had neither its answer nor a lookup of it in flight.
    mutating func claim(_ key: String) -> Bool {
        guard let entry = entries[key] else {
            entries[key] = Entry(pins: 1)
            return true
        }
        if entry.pins == 0 { unlink(key) }
        entries[key]?.pins += 1
        return false
    }

    /// Keeps the answer of `key`'s lookup, which a line claimed.
    mutating func answer(_ key: String, with answer: Answer) {
        entries[key]?.answer = answer
    }

    /// The answer of `key`, or nil while its lookup is in flight (or for a key not claimed).
    func answer(for key: String) -> Answer? {
        entries[key]?.answer
    }

    /// Unpins `key`'s entry for a line written. An answer no line needs any more joins the most
    /// recently used, and the least recently used beyond `capacity` is dropped.
    mutating func release(_ key: String) {
        guard var entry = entries[key], entry.pins > 0 else { return }
        entry.pins -= 1
        guard entry.pins == 0, entry.answer != nil, capacity > 0 else {
            entries[key] = entry.pins == 0 ? nil : entry
            return
        }
        entry.older = newest
        entry.newer = nil
        entries[key] = entry
        if let newest { entries[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        unpinnedCount += 1
        while unpinnedCount > capacity, let oldest {
            unlink(oldest)
            entries[oldest] = nil
        }
    }

    /// Takes `key`'s entry out of the list of unpinned answers.
    private mutating func unlink(_ key: String) {
        guard let entry = entries[key] else { return }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        entries[key]?.older = nil
        entries[key]?.newer = nil
        unpinnedCount -= 1
    }
}
