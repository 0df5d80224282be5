import Foundation

/// An in-memory cache of lookups: the least recently used entry goes first when it is full, and
/// an entry is forgotten once its time to live has passed.
///
/// Opt in by passing one to `IPDataClient(apiKey:baseURL:session:cache:)` or
/// `IPDataClient(apiKey:baseURL:configuration:cache:)`. A cached answer sends no request and
/// costs no quota. Entries are keyed by the address in its canonical form (`2001:DB8::1` and
/// `2001:db8:0:0:0:0:0:1` are one entry) together with the requested `fields`. Single, bulk and
/// streaming lookups all read and fill it; field, ASN and own-address lookups do not. Safe to
/// share between clients, threads and tasks.
///
/// It is the default `LookupCacheStore`: a client given one, as `cache` or as `cacheStore`, reads
/// and fills it without leaving the calling task.
public final class LookupCache: Sendable {
    /// The number of entries a cache keeps by default: 4,096.
    public static let defaultMaximumEntries = 4_096
    /// How long an entry lives by default: 24 hours. Threat data changes about every 15 minutes:
    /// when you act on `threat`, give threat data less (`LookupCache(threatTimeToLive: 900)`).
    public static let defaultTimeToLive: TimeInterval = 24 * 60 * 60

    /// The most entries the cache holds.
    public let maximumEntries: Int
    /// Seconds an entry stays valid after it was stored.
    public let timeToLive: TimeInterval
    /// Seconds an entry that holds threat data (a lookup of all fields, or one that names
    /// `threat`) stays valid; nil for `timeToLive`.
    public let threatTimeToLive: TimeInterval?

    private let now: @Sendable () -> Date
    private let storage: Locked<LRUStorage>

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - maximumEntries: The most entries to keep, at least 1 (default 4,096).
    ///   - timeToLive: Seconds an entry stays valid (default 24 hours).
    public convenience init(
        maximumEntries: Int = LookupCache.defaultMaximumEntries,
        timeToLive: TimeInterval = LookupCache.defaultTimeToLive
    ) {
        self.init(maximumEntries: maximumEntries, timeToLive: timeToLive, now: { Date() })
    }

    /// Creates an empty cache that keeps answers with threat data for less time than the others:
    /// for a server that acts on `threat` (`threatTimeToLive: 900`, the API's refresh interval),
    /// while locations and networks, which change far more slowly, live `timeToLive`.
    ///
    /// - Parameters:
    ///   - maximumEntries: The most entries to keep, at least 1 (default 4,096).
    ///   - timeToLive: Seconds an entry without threat data stays valid (default 24 hours).
    ///   - threatTimeToLive: Seconds an entry with threat data stays valid.
    public convenience init(
        maximumEntries: Int = LookupCache.defaultMaximumEntries,
        timeToLive: TimeInterval = LookupCache.defaultTimeToLive, threatTimeToLive: TimeInterval
    ) {
        self.init(
            maximumEntries: maximumEntries, timeToLive: timeToLive, threatTimeToLive: threatTimeToLive, now: { Date() })
    }

    init(
        maximumEntries: Int, timeToLive: TimeInterval, threatTimeToLive: TimeInterval? = nil,
        now: @escaping @Sendable () -> Date
    ) {
        self.maximumEntries = max(1, maximumEntries)
        self.timeToLive = timeToLive
        self.threatTimeToLive = threatTimeToLive
        self.now = now
        self.storage = Locked(LRUStorage(capacity: max(1, maximumEntries)))
    }

    /// The number of entries held, expired ones included until they are looked at or evicted.
    public var count: Int {
        storage.withLock { $0.count }
    }

    /// Forgets every entry.
    public func removeAll() {
        storage.withLock { $0 = LRUStorage(capacity: maximumEntries) }
    }

    /// The key of a lookup: canonical address and the set of requested fields.
    static func key(address: String, fields: [String]?) -> String? {
        LookupCacheKey(address: address, fields: fields)?.description
    }

    /// The value kept for `key` (a `LookupCacheKey`'s description), unless it expired.
    func value(forKey key: String) -> IPResponse? {
        let now = now()
        return storage.withLock { storage in
            guard let (value, expiry) = storage.value(forKey: key) else { return nil }
            if expiry <= now {
                storage.remove(key)
                return nil
            }
            return value
        }
    }

    func insert(_ value: IPResponse, forKey key: String) {
        insert(value, forKey: key, timeToLive: timeToLive(forKey: key))
    }

    /// `threatTimeToLive` for a key (`address#fields`) whose answer holds threat data, else
    /// `timeToLive`.
    private func timeToLive(forKey key: String) -> TimeInterval {
        guard let threatTimeToLive, let hash = key.lastIndex(of: "#") else { return timeToLive }
        let fields = key[key.index(after: hash)...]
        let holdsThreat = fields.isEmpty || fields.split(separator: ",").contains("threat")
        return holdsThreat ? threatTimeToLive : timeToLive
    }

    /// Keeps `value` for `key` for `timeToLive` seconds instead of the cache's own time to live.
    func insert(_ value: IPResponse, forKey key: String, timeToLive: TimeInterval) {
        let expiry = now().addingTimeInterval(timeToLive)
        storage.withLock { $0.insert(value, expiry: expiry, forKey: key) }
    }
}

extension LookupCache: LookupCacheStore {
    /// The answer kept for `key`, unless it expired; its `json` is nil (the cache keeps models).
    public func entry(for key: LookupCacheKey) -> LookupCacheEntry? {
        value(forKey: key.description).map { LookupCacheEntry(response: $0, json: nil) }
    }

    /// Keeps the answer of `entry` for `key`, for `timeToLive` (`threatTimeToLive` when it holds
    /// threat data).
    public func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) {
        insert(entry.response, forKey: key.description)
    }

    /// Keeps the answer of `entry` for `key` for `timeToLive` seconds instead of the cache's own:
    /// for the front tier of a store of your own, whose entries live no longer than their shared
    /// copy (as `ValkeyLookupStore`'s do).
    public func store(_ entry: LookupCacheEntry, for key: LookupCacheKey, timeToLive: TimeInterval) {
        insert(entry.response, forKey: key.description, timeToLive: timeToLive)
    }
}
