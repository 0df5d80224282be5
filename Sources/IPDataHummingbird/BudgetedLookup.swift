#if Hummingbird
import IPData

/// What a middleware lets through to the API, by its `IPDataLookupLimits`: lookups pending at
/// once, new clients a second and per network a minute, and nothing while the quota is
/// exhausted but one lookup a pause.
actor LookupGate {
    /// Whether a lookup may start.
    enum Verdict {
        /// It may: call `ended(_:)` when it ends.
        case go
        /// Too many pending, or too many new clients: none starts.
        case limited
        /// The API said the quota is exhausted, with this error.
        case quotaExhausted(IPDataError)
    }

    let limits: IPDataLookupLimits
    private(set) var pending = 0
    /// When each recently looked-up address was, oldest first (a bounded map, pruned as it goes).
    private var remembered: [IPAddress: ContinuousClock.Instant] = [:]
    private var rememberedOrder: [(IPAddress, ContinuousClock.Instant)] = []
    private var rememberedStart = 0
    /// Tokens left of the total bucket, and when it was last filled.
    private var tokens: Double
    private var filled: ContinuousClock.Instant
    /// New clients of each network in its current minute.
    private var networks: [IPAddress: (minute: ContinuousClock.Instant, count: Int)] = [:]
    /// The quota error, and when a lookup may try again.
    private var quota: (error: IPDataError, until: ContinuousClock.Instant)?

    /// The most addresses remembered; past it the oldest are forgotten.
    static let maximumRemembered = 65_536

    init(limits: IPDataLookupLimits, now: ContinuousClock.Instant = .now) {
        self.limits = limits
        tokens = Double(max(1, limits.newClientsPerSecond))
        filled = now
    }

    /// Whether a lookup of `address` may start now; counts it as pending when it may.
    func admit(_ address: IPAddress, now: ContinuousClock.Instant = .now) -> Verdict {
        if let quota {
            guard now >= quota.until else { return .quotaExhausted(quota.error) }
            // One lookup tries again; the others wait for its answer, for another pause.
            self.quota = (quota.error, now + .seconds(limits.quotaPause))
        }
        guard pending < max(1, limits.maximumPending) else { return .limited }
        if !isRemembered(address, now: now) {
            guard takeToken(now: now), countNew(in: network(of: address), now: now) else { return .limited }
            remember(address, now: now)
        }
        pending += 1
        return .go
    }

    /// Records the end of a lookup that `admit` let through; a quota 403 pauses every lookup.
    func ended(_ error: IPDataError?, now: ContinuousClock.Instant = .now) {
        pending -= 1
        if let error, Self.isQuotaExhausted(error) {
            quota = (error, now + .seconds(limits.quotaPause))
        } else if error == nil {
            quota = nil
        }
    }

    /// A 403 whose message names the quota (the API's words for a used-up plan).
    static func isQuotaExhausted(_ error: IPDataError) -> Bool {
        guard case .forbidden(let message) = error else { return false }
        return message.lowercased().contains("quota")
    }

    /// The address with the bits past the network's prefix cleared.
    private func network(of address: IPAddress) -> IPAddress {
        func mask(_ bits: UInt64, keeping length: Int) -> UInt64 {
            length <= 0 ? 0 : length >= 64 ? bits : bits & ~(UInt64.max >> length)
        }
        if let bits = address.ipv4Bits {
            let length = min(32, max(0, limits.ipv4PrefixLength))
            return IPAddress(ipv4: UInt32(mask(UInt64(bits) << 32, keeping: length) >> 32))
        }
        guard let (high, low) = address.ipv6Bits else { return address }
        let length = min(128, max(0, limits.ipv6PrefixLength))
        return IPAddress(ipv6High: mask(high, keeping: length), low: mask(low, keeping: length - 64))
    }

    private func isRemembered(_ address: IPAddress, now: ContinuousClock.Instant) -> Bool {
        guard let seen = remembered[address] else { return false }
        return now - seen < .seconds(limits.rememberedFor)
    }

    private func remember(_ address: IPAddress, now: ContinuousClock.Instant) {
        remembered[address] = now
        rememberedOrder.append((address, now))
        // Forget what is too old, or too many, from the front.
        while rememberedStart < rememberedOrder.count {
            let (oldest, seen) = rememberedOrder[rememberedStart]
            let expired = now - seen >= .seconds(limits.rememberedFor)
            guard expired || remembered.count > Self.maximumRemembered else { break }
            if remembered[oldest] == seen { remembered[oldest] = nil }
            rememberedStart += 1
        }
        if rememberedStart > 4_096, rememberedStart * 2 > rememberedOrder.count {
            rememberedOrder.removeFirst(rememberedStart)
            rememberedStart = 0
        }
    }

    private func takeToken(now: ContinuousClock.Instant) -> Bool {
        let rate = Double(max(1, limits.newClientsPerSecond))
        let elapsed = now - filled
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(rate, tokens + seconds * rate)
        filled = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    private func countNew(in network: IPAddress, now: ContinuousClock.Instant) -> Bool {
        var entry = networks[network] ?? (now, 0)
        if now - entry.minute >= .seconds(60) { entry = (now, 0) }
        guard entry.count < max(1, limits.newClientsPerNetworkPerMinute) else {
            networks[network] = entry
            return false
        }
        entry.count += 1
        networks[network] = entry
        if networks.count > Self.maximumRemembered {
            networks = networks.filter { now - $0.value.minute < .seconds(60) }
        }
        return true
    }
}

/// The first of two events, a lookup's result or the end of the budget: resumes its continuation
/// once, with the result or with nil.
private actor FirstOfTwo {
    private var continuation: CheckedContinuation<Result<IPResponse, any Error>?, Never>?

    init(_ continuation: CheckedContinuation<Result<IPResponse, any Error>?, Never>) {
        self.continuation = continuation
    }

    func finish(_ result: Result<IPResponse, any Error>?) {
        continuation?.resume(returning: result)
        continuation = nil
    }
}

/// The result of `lookup` if it ends within `budget`, else nil at the budget's end, while the
/// lookup goes on. Awaiting a task's result ignores the caller's cancellation, so the race is a
/// continuation that the first of the two resumes, not a task group (which would wait for both).
@available(macOS 14, iOS 17, tvOS 17, *)
func result(
    of lookup: Task<IPResponse, any Error>, within budget: Duration
) async -> Result<IPResponse, any Error>? {
    await withCheckedContinuation { continuation in
        let race = FirstOfTwo(continuation)
        let timer = Task {
            try? await Task.sleep(for: budget)
            await race.finish(nil)
        }
        Task {
            let result = await lookup.result
            timer.cancel()
            await race.finish(result)
        }
    }
}
#endif
