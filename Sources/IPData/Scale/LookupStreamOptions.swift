/// How a lookup of many addresses runs.
public struct LookupStreamOptions: Sendable {
    /// How many requests may be in flight at once (at least 1; default 4).
    public var concurrency: Int
    /// When the plan refuses bulk requests (403, `Upgrade to a paid plan to make bulk requests.`),
    /// carry on with single lookups at the same concurrency (default true). When false, every
    /// address then fails with that `forbidden` error.
    public var fallsBackToSingleLookups: Bool

    /// Options for a lookup of many addresses.
    public init(concurrency: Int = 4, fallsBackToSingleLookups: Bool = true) {
        self.concurrency = concurrency
        self.fallsBackToSingleLookups = fallsBackToSingleLookups
    }
}
