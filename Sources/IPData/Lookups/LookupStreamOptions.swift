import Foundation

/// How a lookup of many addresses runs.
public struct LookupStreamOptions: Sendable {
    /// How many requests may be in flight at once (at least 1; default 4).
    public var concurrency: Int
    /// When the plan refuses bulk requests (403, `Upgrade to a paid plan to make bulk requests.`),
    /// carry on with single lookups at the same concurrency (default true). When false, every
    /// address then fails with that `forbidden` error.
    public var fallsBackToSingleLookups: Bool

    /// Whether addresses the API refuses to look up (private, loopback, reserved) are sent to it
    /// (default true). When false, such an address is answered in its place in the order, without
    /// a request, with the result the API would give: `.failure(.badRequest(message))`, the
    /// message being the API's (`10.0.0.1 is a private IP address`, `224.0.0.1 is a reserved IP
    /// address.`), so they stay out of bulk requests and leave the network. An address is not
    /// public when it lies in a block that the IANA IPv4 or IPv6 Special-Purpose Address Registry
    /// marks as not globally reachable (`10.0.0.0/8`, `127.0.0.0/8`, `198.18.0.0/15`, `fc00::/7`,
    /// Teredo's `2001::/32`…), in `100.64.0.0/10` or `224.0.0.0/3`, or, for IPv6, outside
    /// `2000::/3` (but for NAT64's `64:ff9b::/96`); `::ffff:1.2.3.4` goes by its IPv4 address.
    public var sendsNonPublicAddresses = true

    /// Called, from any thread, as the stream works: for progress displays and summaries.
    public var onEvent: (@Sendable (LookupStreamEvent) -> Void)?

    /// Keep the bytes of the API's answer for each address in `IPLookupResult.json` (default
    /// false), for a tool that prints what the API sent rather than the decoded model. The
    /// elements of a bulk answer are then not decoded, unless they may be a rejection: their
    /// `response` holds only `ip`, and they are not kept in the in-memory `cache`.
    public var keepsJSON = false

    /// Send single lookups from the start, as after the plan refused a bulk request (default
    /// false): for a caller that runs one stream after another and saw
    /// `LookupStreamEvent.switchedToSingleLookups` in an earlier one, so that no later stream
    /// spends a request on a bulk call the plan refuses.
    public var startsWithSingleLookups = false

    /// How long, in seconds, a chunk of addresses may wait to fill before it is sent anyway, for
    /// input that comes slowly (a log being written, `tail -f`); nil (the default) waits until the
    /// chunk is full or the input ends.
    ///
    /// With it set, the input is read by a task of its own, a bulk request's worth of addresses
    /// ahead at most, and a chunk is sent when it is full or when its first address has waited
    /// this long, whichever comes first; 0 sends what has come as soon as nothing more is there to
    /// read. A result already answered, by the API, a cache or locally, is handed out without
    /// waiting for more input; results stay in input order, so one may still wait for those
    /// before it.
    /// Negative values count as 0.
    public var flushInterval: TimeInterval?

    /// Options for a lookup of many addresses.
    public init(
        concurrency: Int = 4, fallsBackToSingleLookups: Bool = true,
        onEvent: (@Sendable (LookupStreamEvent) -> Void)? = nil
    ) {
        self.concurrency = concurrency
        self.fallsBackToSingleLookups = fallsBackToSingleLookups
        self.onEvent = onEvent
    }
}

/// Something a lookup stream did, reported through `LookupStreamOptions.onEvent`.
public enum LookupStreamEvent: Sendable {
    /// A request went to the API: `POST /bulk` with this many addresses, or a single lookup (1).
    /// Answers from the cache and shared (coalesced) lookups send none.
    case requestSent(addresses: Int)
    /// The plan refused bulk requests; the stream carries on with single lookups. Sent once.
    case switchedToSingleLookups
}
