import Foundation
import IPData

/// The CLI's cache of answers as a `LookupCacheStore`, for one scope (the sandbox, or one API
/// and key): give it to the client as `IPDataClient.Configuration.cacheStore`, and a second run
/// over the same addresses sends no request.
///
/// A lookup is answered from its own entry while it is younger than its lifetime: 15 minutes
/// when it asks for threat data (all fields, or fields with `threat`), 24 hours otherwise. A
/// lookup of some fields is also answered from the address's full answer (all fields), with
/// those members of it (`AnswerSubset`), on the same terms: so a full answer's fields other than
/// `threat` serve for 24 hours, its threat data for 15 minutes.
///
/// Only answers are kept: a JSON object of at most 64 KiB (`AnswerCheck.largestAnswer`), without
/// `message`, whose `ip` is the address it is kept under; anything else is not stored. It is kept
/// compacted (`CompactJSON`: the API's tokens without the whitespace between them, as JSON lines
/// print it), with a digest of it and its key (`AnswerDigest`). What is read back is served only
/// when its digest shows it is what the store checked and wrote, and by its age and fields, as
/// the API's bytes compacted (`LookupCacheEntry(json:)`): an entry that fails is a miss, and is
/// removed. A store never throws; see `CacheDatabase` for sharing, damage and the bound.
package final class SQLiteLookupStore: LookupCacheStore, @unchecked Sendable {
    // @unchecked: `hitCount` is read and written only under `lock`; the rest is immutable and Sendable.

    /// The database the entries are in.
    package let database: CacheDatabase
    /// Whose answers this store reads and writes.
    package let scope: CacheScope
    private let lock = NSLock()
    private var hitCount = 0

    /// A store of `scope`'s answers in `database`.
    package init(database: CacheDatabase, scope: CacheScope) {
        self.database = database
        self.scope = scope
    }

    /// How many lookups this store has answered so far.
    package var hits: Int {
        lock.lock()
        defer { lock.unlock() }
        return hitCount
    }

    /// The entry for `key`: see `entries(for:)`.
    package func entry(for key: LookupCacheKey) -> LookupCacheEntry? {
        entries(for: [key])[0]
    }

    /// Keeps `entry` for `key`: see `store(_:for:)` of many.
    package func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) {
        store([entry], for: [key])
    }

    /// The entries for `keys`, read in one transaction: each lookup's own entry, else, for a
    /// lookup of some fields, those members of the address's full answer; each checked before
    /// it is served (see the type's description), with the API's JSON compacted.
    package func entries(for keys: [LookupCacheKey]) -> [LookupCacheEntry?] {
        answers(for: keys).map { $0.map(LookupCacheEntry.init(json:)) }
    }

    /// The answers for `keys` as `entries(for:)` reads and checks them: the API's JSON of each,
    /// compacted, nil for a miss. What `ipdata bulk` prints as it is, without an entry around it.
    package func answers(for keys: [LookupCacheKey]) -> [Data?] {
        guard !keys.isEmpty else { return [] }
        let now = CacheDatabase.milliseconds(database.configuration.now())
        let rows = database.storedAnswers(scope: scope, keys: keys)
        var found = [Data?](repeating: nil, count: keys.count)
        var discarded: [CacheDatabase.StoredAnswer] = []
        for (index, (key, rows)) in zip(keys, rows).enumerated() where rows.own != nil || rows.full != nil {
            let lifetime = Int64(database.configuration.lifetime(of: key) * 1_000)
            func isFresh(_ row: CacheDatabase.StoredAnswer) -> Bool {
                now - row.stored < lifetime && row.stored - now < lifetime
            }
            if let own = rows.own, isFresh(own) {
                if own.isIntact {
                    found[index] = own.json
                    continue
                }
                discarded.append(own)
            }
            guard !key.fields.isEmpty, let full = rows.full, isFresh(full) else { continue }
            guard full.isIntact, let subset = AnswerSubset.members(ofObject: full.json, named: Set(key.fields))
            else {
                discarded.append(full)
                continue
            }
            found[index] = subset
        }
        database.remove(discarded)
        let hits = found.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        if hits > 0 {
            lock.lock()
            hitCount += hits
            lock.unlock()
        }
        return found
    }

    /// This store for a client whose caller reads the cache itself (`ipdata bulk` answers its
    /// cached addresses before they reach the client): it keeps the client's answers, and reads
    /// nothing, so that a lookup the caller found missing is not read a second time.
    package var writingOnly: any LookupCacheStore {
        WritingOnlyLookupStore(store: self)
    }

    /// Keeps each entry that is an answer (see the type's description) for the key at the same
    /// position, compacted, in one transaction; the others are not kept. An entry without the
    /// API's JSON is kept as its model's encoding.
    package func store(_ entries: [LookupCacheEntry], for keys: [LookupCacheKey]) {
        var answers: [(key: LookupCacheKey, json: Data)] = []
        answers.reserveCapacity(keys.count)
        for (entry, key) in zip(entries, keys) {
            guard let json = entry.json ?? (try? JSONEncoder().encode(entry.response)),
                json.count <= AnswerCheck.largestAnswer, let answer = AnswerJSON(json), !answer.hasMessage,
                AnswerCheck.answers(ip: answer.ip, key: key)
            else { continue }
            answers.append((key, answer.compacted))
        }
        database.write(scope: scope, answers: answers)
    }
}
