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
/// `message`, whose `ip` is the address it is kept under; anything else is not stored. What is
/// read back is checked the same way, and its age and fields, before it is served: an entry that
/// fails is a miss, and is removed. A store never throws; see `CacheDatabase` for sharing, damage
/// and the bound.
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
    /// it is served (see the type's description), with the API's JSON.
    package func entries(for keys: [LookupCacheKey]) -> [LookupCacheEntry?] {
        guard !keys.isEmpty else { return [] }
        let now = CacheDatabase.milliseconds(database.configuration.now())
        let rows = database.storedAnswers(scope: scope, keys: keys)
        let decoder = JSONDecoder()
        var found = [LookupCacheEntry?](repeating: nil, count: keys.count)
        var discarded: [CacheDatabase.StoredAnswer] = []
        for (index, (key, rows)) in zip(keys, rows).enumerated() where !rows.isEmpty {
            let lifetime = Int64(database.configuration.lifetime(of: key) * 1_000)
            let fields = key.fields.joined(separator: ",")
            func isFresh(_ row: CacheDatabase.StoredAnswer) -> Bool {
                now - row.stored < lifetime && row.stored - now < lifetime
            }
            if let own = rows.first(where: { $0.fields == fields }), isFresh(own) {
                if let response = Self.answer(own.json, for: key, decoder: decoder) {
                    found[index] = LookupCacheEntry(response: response, json: own.json)
                    continue
                }
                discarded.append(own)
            }
            guard !key.fields.isEmpty, let full = rows.first(where: { $0.fields.isEmpty }), isFresh(full),
                let fullKey = LookupCacheKey(address: key.address, fields: nil)
            else { continue }
            guard Self.answer(full.json, for: fullKey, decoder: decoder) != nil,
                let subset = AnswerSubset.members(ofObject: full.json, named: Set(key.fields)),
                let response = try? decoder.decode(IPResponse.self, from: subset)
            else {
                discarded.append(full)
                continue
            }
            found[index] = LookupCacheEntry(response: response, json: subset)
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

    /// Keeps each entry that is an answer (see the type's description) for the key at the same
    /// position, in one transaction; the others are not kept. An entry without the API's JSON
    /// is kept as its model's encoding.
    package func store(_ entries: [LookupCacheEntry], for keys: [LookupCacheKey]) {
        var answers: [(key: LookupCacheKey, json: Data)] = []
        answers.reserveCapacity(keys.count)
        for (entry, key) in zip(entries, keys) where AnswerCheck.answers(entry.response, key: key) {
            guard let json = entry.json ?? (try? JSONEncoder().encode(entry.response)),
                AnswerCheck.hasAnswerShape(json)
            else { continue }
            answers.append((key, json))
        }
        database.write(scope: scope, answers: answers)
    }

    /// The model of `json` when it is an answer for `key` (see `AnswerCheck`); nil otherwise.
    private static func answer(_ json: Data, for key: LookupCacheKey, decoder: JSONDecoder) -> IPResponse? {
        guard AnswerCheck.hasAnswerShape(json), let response = try? decoder.decode(IPResponse.self, from: json),
            AnswerCheck.answers(response, key: key)
        else { return nil }
        return response
    }
}
