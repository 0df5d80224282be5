import Foundation

/// Where a client keeps the answers of its lookups, to answer them again without a request.
///
/// `LookupCache`, in memory, is the default implementation; `ValkeyLookupStore` of the
/// `IPDataValkey` library (the `Valkey` package trait) shares one store between every instance of
/// an app. Give a client one with `IPDataClient.Configuration.cacheStore`.
///
/// The client reads the store before it sends a lookup, and fills it with each answer of the
/// API. A store never throws: one that cannot answer (a server that is down or slow) reports a
/// miss, and the lookup goes to the API. The requirements for many keys let a network store
/// answer a bulk lookup in one round trip; by default they call the one-key requirements in turn.
public protocol LookupCacheStore: Sendable {
    /// The entry kept for `key`, or nil when there is none (or the store cannot answer now).
    func entry(for key: LookupCacheKey) async -> LookupCacheEntry?
    /// Keeps `entry` for `key`, replacing what was there.
    func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) async
    /// The entries kept for `keys`, one per key in their order, nil where there is none.
    func entries(for keys: [LookupCacheKey]) async -> [LookupCacheEntry?]
    /// Keeps each entry for the key at the same position.
    func store(_ entries: [LookupCacheEntry], for keys: [LookupCacheKey]) async
}

extension LookupCacheStore {
    /// Reads each key with `entry(for:)`, in turn.
    public func entries(for keys: [LookupCacheKey]) async -> [LookupCacheEntry?] {
        var found: [LookupCacheEntry?] = []
        found.reserveCapacity(keys.count)
        for key in keys { found.append(await entry(for: key)) }
        return found
    }

    /// Keeps each entry with `store(_:for:)`, in turn.
    public func store(_ entries: [LookupCacheEntry], for keys: [LookupCacheKey]) async {
        for (entry, key) in zip(entries, keys) { await store(entry, for: key) }
    }
}
