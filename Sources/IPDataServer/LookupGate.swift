import IPData

/// What a middleware lets through to the API, by its `IPDataLookupLimits`: lookups pending at
/// once, new clients a second and per network a minute, and nothing while the quota is
/// exhausted but one lookup a pause. It holds the lookups it let through, so that a server's
/// shutdown can cancel them and wait for their end.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
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
    /// When each address was last let through; pruned of expired entries when it grows large.
    private var remembered: [IPAddress: ContinuousClock.Instant] = [:]
    /// Tokens left of the total bucket, and when it was last filled.
    private var tokens: Double
    private var filled: ContinuousClock.Instant
    /// New clients of each network in its current minute.
    private var networks: [IPAddress: (minute: ContinuousClock.Instant, count: Int)] = [:]
    /// The quota error, and when a lookup may try again.
    private var quota: (error: IPDataError, until: ContinuousClock.Instant)?

    /// The lookups `launch` started that have not ended, by number.
    private var running: [Int: Task<IPResponse, any Error>] = [:]
    private var launched = 0
    /// Who waits for `running` to empty (`cancelAll()`).
    private var drained: [CheckedContinuation<Void, Never>] = []

    /// The most addresses and networks remembered; past it the expired ones are forgotten.
    static let maximumRemembered = 65_536

    init(limits: IPDataLookupLimits, now: ContinuousClock.Instant = .now) {
        self.limits = limits
        tokens = Double(max(1, limits.newClientsPerSecond))
        filled = now
    }

    /// Whether a lookup of `address` may start now; counts it as pending when it may.
    func admit(_ address: IPAddress, now: ContinuousClock.Instant = .now) -> Verdict {
        if let quota, now < quota.until { return .quotaExhausted(quota.error) }
        guard pending < max(1, limits.maximumPending) else { return .limited }
        if !isRemembered(address, now: now) {
            // The network's own count first, so that a network past its minute's share spends
            // none of the tokens every other new client needs.
            let network = network(of: address)
            guard hasRoom(in: network, now: now), takeToken(now: now) else { return .limited }
            networks[network]!.count += 1
            remember(address, now: now)
        }
        // After a quota 403, this lookup tries again; the others wait for another pause.
        if let quota { self.quota = (quota.error, now + .seconds(limits.quotaPause)) }
        pending += 1
        return .go
    }

    /// Records the end of a lookup that `admit` let through, with its error (nil when it got an
    /// answer): a quota 403 pauses every lookup, and an answer ends the pause.
    func ended(_ error: IPDataError?, now: ContinuousClock.Instant = .now) {
        pending -= 1
        if let error, Self.isQuotaExhausted(error) {
            quota = (error, now + .seconds(limits.quotaPause))
        } else if error == nil {
            quota = nil
        }
    }

    /// Starts `lookup`, which `admit` let through, as a task of its own (not a child: past the
    /// budget it goes on and fills the cache); its end is recorded as `ended(_:)`'s.
    func launch(_ lookup: @escaping @Sendable () async throws -> IPResponse) -> Task<IPResponse, any Error> {
        launched += 1
        let number = launched
        let task = Task {
            do {
                let response = try await lookup()
                finished(number, nil)
                return response
            } catch {
                finished(number, error as? IPDataError ?? .networkError(error))
                throw error
            }
        }
        running[number] = task
        return task
    }

    private func finished(_ number: Int, _ error: IPDataError?) {
        running[number] = nil
        ended(error)
        if running.isEmpty {
            for waiter in drained { waiter.resume() }
            drained = []
        }
    }

    /// Cancels every lookup `launch` started, and returns when all have ended.
    func cancelAll() async {
        for task in running.values { task.cancel() }
        guard !running.isEmpty else { return }
        await withCheckedContinuation { drained.append($0) }
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
        if remembered.count > Self.maximumRemembered {
            remembered = remembered.filter { now - $0.value < .seconds(limits.rememberedFor) }
            // Still too many within the window: forget them all rather than grow without end.
            if remembered.count > Self.maximumRemembered { remembered = [address: now] }
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

    /// Whether `network` may have one more new client this minute; starts its minute anew when
    /// the last one is over.
    private func hasRoom(in network: IPAddress, now: ContinuousClock.Instant) -> Bool {
        if let entry = networks[network], now - entry.minute < .seconds(60) {
            return entry.count < max(1, limits.newClientsPerNetworkPerMinute)
        }
        networks[network] = (now, 0)
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
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
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
