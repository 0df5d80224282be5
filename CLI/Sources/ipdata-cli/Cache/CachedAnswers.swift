import Foundation
import IPData

/// The disk cache as a lookup stream reads and fills it (`LookupStreamOptions.keptAnswers`), for
/// one run: its scope (which API, which key) and its fields are fixed; it counts its hits.
final class CachedAnswers: KeptAnswers {
    let cache: DiskCache
    let scope: CacheScope
    /// The top-level fields the run asks the API for; nil for all.
    let fields: [String]?
    private let hitCount = Locked(0)

    init(cache: DiskCache, scope: CacheScope, fields: [String]?) {
        self.cache = cache
        self.scope = scope
        self.fields = fields
    }

    /// The entry's key of `address`; nil for what is no IP address (never cached).
    func key(for address: String) -> CacheEntryKey? {
        LookupCacheKey(address: address, fields: fields).map { CacheEntryKey(lookup: $0, scope: scope) }
    }

    func answer(for address: String) -> Data? {
        guard let key = key(for: address), let json = cache.entry(for: key) else { return nil }
        hitCount.withLock { $0 += 1 }
        return json
    }

    func keep(_ json: Data, for address: String) {
        guard let key = key(for: address) else { return }
        cache.store(json, for: key)
    }

    /// How many answers came from the cache so far.
    var hits: Int { hitCount.withLock { $0 } }

    /// The notice of a run without a summary line of its own (`enrich`, `summarize`).
    static func notice(_ hits: Int) -> String {
        "\(hits) answer\(hits == 1 ? "" : "s") from the cache (nothing paid for them)"
    }

    /// Says, once, that answers could not be kept, and why.
    func reportWriteProblem(to console: Console) {
        if let problem = cache.takeWriteProblem() {
            console.warning("cannot write the cache in \(cache.directory) (\(problem)): answers were not kept")
        }
    }
}
