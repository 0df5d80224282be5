import IPData

/// A `SQLiteLookupStore` that keeps what it is given and answers nothing: see
/// `SQLiteLookupStore.writingOnly`.
struct WritingOnlyLookupStore: LookupCacheStore {
    let store: SQLiteLookupStore

    /// A miss, always: the caller has read the cache already.
    func entry(for key: LookupCacheKey) -> LookupCacheEntry? {
        nil
    }

    /// Keeps `entry` for `key` in the store.
    func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) {
        store.store(entry, for: key)
    }

    /// Misses, always, without a read.
    func entries(for keys: [LookupCacheKey]) -> [LookupCacheEntry?] {
        Array(repeating: nil, count: keys.count)
    }

    /// Keeps each entry for its key in the store, in one transaction.
    func store(_ entries: [LookupCacheEntry], for keys: [LookupCacheKey]) {
        store.store(entries, for: keys)
    }
}
