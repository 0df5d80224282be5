import IPData

/// How many lookups a middleware (`IPDataClientLookup`) lets through to the API, so that no client, and no
/// outage, can make it spend your quota or pile up work. A request the limits keep from a lookup
/// goes on without data, as `.overBudget` (which `IPDataPolicy.blocksUnansweredClients` can turn
/// away).
///
/// A client is new when the middleware has not looked its address up in the last
/// `rememberedFor` seconds. One machine can have a whole IPv6 /64 of addresses, a new one for
/// each request, and each would be a billed lookup: so new clients are counted per network
/// (`ipv6PrefixLength`, `ipv4PrefixLength`) and in total.
public struct IPDataLookupLimits: Sendable, Equatable {
    /// The most lookups waiting for the API at once: 256 by default. While that many wait (an
    /// outage, a flood of new clients), a new client's request starts none.
    public var maximumPending: Int
    /// New clients a second, in total: 100 by default (a burst of as many, then as many a second).
    public var newClientsPerSecond: Int
    /// New clients of one network a minute: 30 by default.
    public var newClientsPerNetworkPerMinute: Int
    /// The prefix length of an IPv6 client's network: 64 by default (one site or machine).
    public var ipv6PrefixLength: Int
    /// The prefix length of an IPv4 client's network: 32 by default (the address itself).
    public var ipv4PrefixLength: Int
    /// Seconds a looked-up address is not new: 600 by default.
    public var rememberedFor: Double
    /// Seconds without any lookup after the API says the quota is exhausted (a 403 that names
    /// the quota), then one lookup to see whether it is back: 300 by default.
    public var quotaPause: Double

    /// Limits; every parameter is described with its property.
    public init(
        maximumPending: Int = 256, newClientsPerSecond: Int = 100, newClientsPerNetworkPerMinute: Int = 30,
        ipv6PrefixLength: Int = 64, ipv4PrefixLength: Int = 32, rememberedFor: Double = 600,
        quotaPause: Double = 300
    ) {
        self.maximumPending = maximumPending
        self.newClientsPerSecond = newClientsPerSecond
        self.newClientsPerNetworkPerMinute = newClientsPerNetworkPerMinute
        self.ipv6PrefixLength = ipv6PrefixLength
        self.ipv4PrefixLength = ipv4PrefixLength
        self.rememberedFor = rememberedFor
        self.quotaPause = quotaPause
    }

    /// No limit but `maximumPending`: every client's request may start a lookup.
    public static func unlimitedNewClients(maximumPending: Int = 256) -> IPDataLookupLimits {
        IPDataLookupLimits(
            maximumPending: maximumPending, newClientsPerSecond: .max, newClientsPerNetworkPerMinute: .max)
    }
}
