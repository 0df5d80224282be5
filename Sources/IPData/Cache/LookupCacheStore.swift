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

/// What a lookup is kept under: the address in its canonical form (`2001:DB8::1` and
/// `2001:db8:0:0:0:0:0:1` are one key) and the set of requested fields.
public struct LookupCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The address in canonical form: lower-case, IPv6 compressed.
    public let address: String
    /// The requested fields, sorted and without repeats; empty for all fields.
    public let fields: [String]
    /// The key as text, `address#field,field` (`8.8.8.8#` for all fields): what `LookupCache`
    /// files entries under, and the name a network store builds its keys from.
    public let description: String

    /// The key of a lookup of `address` for `fields` (nil or empty for all); nil when `address`
    /// is not an IPv4 or IPv6 address.
    public init?(address: String, fields: [String]?) {
        guard let canonical = IPAddress.canonical(address) else { return nil }
        let selection = fields.map { Set($0).sorted() } ?? []
        self.address = canonical
        self.fields = selection
        self.description = canonical + "#" + selection.joined(separator: ",")
    }

    /// Whether the answer holds threat data, which the API refreshes about every 15 minutes: a
    /// lookup of all fields, or one that names `threat`. A store may keep such answers for less time.
    public var includesThreat: Bool {
        fields.isEmpty || fields.contains("threat")
    }
}

/// One kept lookup: the answer, and the API's JSON it was decoded from when the client had it.
public struct LookupCacheEntry: Sendable {
    /// The answer.
    public var response: IPResponse
    /// The API's JSON for this address, as it arrived; nil when only the model is at hand.
    public var json: Data?

    /// An entry of `response`, decoded from `json`.
    public init(response: IPResponse, json: Data?) {
        self.response = response
        self.json = json
    }
}
