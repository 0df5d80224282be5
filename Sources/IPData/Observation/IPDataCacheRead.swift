import Foundation

/// A read of a client's cache or of the store behind it, as an `IPDataObserver` is told of it:
/// how many of the call's addresses it answered.
public struct IPDataCacheRead: Sendable {
    /// Where a client keeps its answers.
    public enum Tier: String, Sendable, Hashable {
        /// The client's `LookupCache`, in memory (`IPDataClient.Configuration.cache`).
        case memory
        /// The store behind it (`IPDataClient.Configuration.cacheStore`), such as a shared one.
        case store
    }

    /// The call that read.
    public let call: IPDataCall
    /// What was read.
    public let tier: Tier
    /// The addresses it answered.
    public let hits: Int
    /// The addresses it did not answer, which go on to the store or to the API.
    public let misses: Int

    /// A read, as the client describes its own (for the tests of an observer).
    public init(call: IPDataCall, tier: Tier, hits: Int, misses: Int) {
        self.call = call
        self.tier = tier
        self.hits = hits
        self.misses = misses
    }
}
