#if Valkey
import Crypto
import Foundation
import IPData
import Valkey

/// A lookup cache shared by every instance of an app, on Valkey or Redis 7: give one to each
/// client as `IPDataClient.Configuration.cacheStore`, and an address one instance has looked up
/// costs the others no request.
///
/// It has two tiers. In front, a `LookupCache` in memory answers what this process read or
/// stored lately without a round trip. Behind it, the server keeps the API's JSON of each
/// lookup under `keyPrefix` + the lookup's key (`ipdata:8.8.8.8#` for all fields,
/// `ipdata:8.8.8.8#city,ip` for two), with the server's own expiry: `timeToLive`, or
/// `threatTimeToLive` for an answer that holds threat data.
///
/// The store trusts nothing it reads. Each entry carries the key it answers and when it was
/// stored, and is read only when it answers the key it is read under, is no older than its time
/// to live (whatever expiry the server has, or none), is at most `maximumEntrySize` bytes (the
/// server checks the size before it sends the value), and decodes as an answer for that address.
/// With `entrySecret`, every entry is authenticated (HMAC-SHA256) and one written without the
/// secret is never read. An entry that fails is a miss (`.discardedEntry`), replaced by the next
/// answer.
///
/// The store fails open. An operation slower than `operationBudget` is a miss for its lookup
/// alone, which goes to the API; the operation itself goes on (a write still lands). The server
/// is unavailable on evidence: an operation that fails (no connection, a reply that is not
/// Valkey's), or a second in which operations have only timed out. Then `onEvent` hears
/// `.unavailable`, once, and the store sends the server one operation a `retryInterval` and
/// none for the other lookups, which so wait for nothing, until it answers (`.available`). No
/// error reaches the caller. `ValkeyClient` reconnects by itself.
///
/// The `ValkeyClient` must be running (`await valkey.run()` in a task, or in your service group).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class ValkeyLookupStore: LookupCacheStore {
    /// How the store names, keeps and waits for entries. Every property has a default.
    public struct Configuration: Sendable {
        /// Put before every key, so that several apps can share one server: `ipdata:` by default.
        public var keyPrefix: String
        /// Seconds the server keeps an answer: 24 hours by default.
        public var timeToLive: TimeInterval
        /// Seconds the server keeps an answer that holds threat data (a lookup of all fields, or
        /// one that names `threat`), which the API refreshes about every 15 minutes; nil, the
        /// default, for `timeToLive`. Set it to 900 when you act on `threat`.
        public var threatTimeToLive: TimeInterval?
        /// The longest a lookup waits for one operation on the server before it goes on without
        /// it: 250 ms by default. A healthy server answers at once, but a busy host delays some
        /// operations far longer, and each one that runs out costs a billed API request; the
        /// default is still no longer than a round trip to the API takes from most places.
        public var operationBudget: Duration
        /// While the server is unavailable, the time between two attempts: 1 s by default.
        public var retryInterval: Duration
        /// The most entries the in-memory front tier holds: 4,096 by default; 0 for none.
        public var localMaximumEntries: Int
        /// The largest entry the store reads, in bytes: 64 KiB by default (an answer of every
        /// field is about 2 KB). The server checks each entry's size before it sends it.
        public var maximumEntrySize: Int
        /// A secret every instance of your app shares, which authenticates each entry
        /// (HMAC-SHA256; 32 random bytes will do): an entry written to the server without it is
        /// never read. nil, the default, for entries checked for what they answer and their age
        /// alone. Never logged or stored.
        public var entrySecret: Data?
        /// The most seconds the front tier answers an entry before it reads the server again:
        /// 60 by default (never more than the entry's own time to live).
        public var localTimeToLive: TimeInterval

        /// A configuration; every parameter is described with its property.
        public init(
            keyPrefix: String = "ipdata:", timeToLive: TimeInterval = LookupCache.defaultTimeToLive,
            threatTimeToLive: TimeInterval? = nil, operationBudget: Duration = .milliseconds(250),
            retryInterval: Duration = .seconds(1), localMaximumEntries: Int = LookupCache.defaultMaximumEntries,
            localTimeToLive: TimeInterval = 60, maximumEntrySize: Int = 65_536, entrySecret: Data? = nil
        ) {
            self.keyPrefix = keyPrefix
            self.timeToLive = timeToLive
            self.threatTimeToLive = threatTimeToLive
            self.operationBudget = operationBudget
            self.retryInterval = retryInterval
            self.localMaximumEntries = localMaximumEntries
            self.localTimeToLive = localTimeToLive
            self.maximumEntrySize = maximumEntrySize
            self.entrySecret = entrySecret
        }
    }

    /// What the store reports of the server: changes of its state, never each failure.
    public enum Event: Sendable, Equatable {
        /// The server stopped answering (down, answering garbage, or a second of nothing but
        /// timeouts): lookups go to the API until it answers again.
        case unavailable(reason: String)
        /// The server answers again.
        case available
        /// An entry on the server was not one the store can use (its full key): not of its form,
        /// for another key, too old, too large, not authenticated by `entrySecret`, or not an
        /// answer of the API. Read as a miss, and replaced by the next answer.
        case discardedEntry(key: String)
    }

    /// How the store names, keeps and waits for entries.
    public let configuration: Configuration
    private let client: ValkeyClient
    private let local: LookupCache?
    private let health: StoreHealth
    private let onEvent: (@Sendable (Event) -> Void)?
    private let secret: SymmetricKey?

    /// A store on the server `client` speaks to.
    ///
    /// - Parameters:
    ///   - client: A running `ValkeyClient`.
    ///   - configuration: Key prefix, times to live, the budget of an operation, the front tier.
    ///   - onEvent: Told, on any thread, when the server becomes unavailable or available again,
    ///     and of each entry it discards.
    public init(
        client: ValkeyClient, configuration: Configuration = .init(),
        onEvent: (@Sendable (Event) -> Void)? = nil
    ) {
        self.client = client
        self.configuration = configuration
        self.local =
            configuration.localMaximumEntries > 0
            ? LookupCache(maximumEntries: configuration.localMaximumEntries, timeToLive: configuration.localTimeToLive)
            : nil
        self.health = StoreHealth(retryInterval: configuration.retryInterval)
        self.onEvent = onEvent
        self.secret = configuration.entrySecret.map { SymmetricKey(data: $0) }
    }

    /// The server's key of `key`: the prefix and the lookup's key.
    public func serverKey(for key: LookupCacheKey) -> String {
        configuration.keyPrefix + key.description
    }

    /// Seconds the server keeps the answer of `key`.
    public func timeToLive(for key: LookupCacheKey) -> TimeInterval {
        key.includesThreat ? configuration.threatTimeToLive ?? configuration.timeToLive : configuration.timeToLive
    }

    /// The entry of `key`: from the front tier, else from the server (see `entries(for:)`).
    public func entry(for key: LookupCacheKey) async -> LookupCacheEntry? {
        await entries(for: [key])[0]
    }

    /// Keeps `entry` for `key` in both tiers (see `store(_:for:)` of many).
    public func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) async {
        await store([entry], for: [key])
    }

    /// The front tier's entries, and the others from the server in one `MGET`.
    public func entries(for keys: [LookupCacheKey]) async -> [LookupCacheEntry?] {
        var found = [LookupCacheEntry?](repeating: nil, count: keys.count)
        var remote: [Int] = []
        for (index, key) in keys.enumerated() {
            if let kept = local?.entry(for: key) {
                found[index] = kept
            } else {
                remote.append(index)
            }
        }
        guard !remote.isEmpty else { return found }
        let names = remote.map { ValkeyKey(serverKey(for: keys[$0])) }
        let limit = String(configuration.maximumEntrySize)
        let values = await perform { client -> [Data?] in
            let reply = try await client.eval(script: Self.readScript, keys: names, args: [limit])
            let values = try reply.decode(as: [RESPBulkString?].self)
            guard values.count == names.count else { throw UnexpectedReply(command: "EVAL") }
            return values.map { $0.map { Data($0) } }
        }
        guard let values else { return found }
        let now = Date()
        for (index, value) in zip(remote, values) {
            guard let value else { continue }
            let key = keys[index]
            guard let response = answer(in: value, for: key, at: now) else {
                onEvent?(.discardedEntry(key: serverKey(for: key)))
                continue
            }
            local?.store(response, for: key, timeToLive: localTimeToLive(for: key))
            found[index] = response
        }
        return found
    }

    /// The server's side of a read: each key's value, or a marker in place of one that is not a
    /// string or is larger than ARGV[1] bytes, so that no large value is ever sent.
    static let readScript = """
        local out = {}
        for i, key in ipairs(KEYS) do
          local kind = redis.call('TYPE', key).ok
          if kind == 'none' then
            out[i] = false
          elseif kind ~= 'string' or redis.call('STRLEN', key) > tonumber(ARGV[1]) then
            out[i] = 'ipdata/refused'
          else
            out[i] = redis.call('GET', key)
          end
        end
        return out
        """

    /// The entry in `value`, read under `key`, when every check passes (see the type's
    /// documentation).
    private func answer(in value: Data, for key: LookupCacheKey, at now: Date) -> LookupCacheEntry? {
        guard
            case .success(let json) = StoredEntry.json(
                of: value, for: key, at: now, maximumAge: timeToLive(for: key), secret: secret),
            json.first == UInt8(ascii: "{"),
            let response = try? JSONDecoder().decode(IPResponse.self, from: json)
        else { return nil }
        // An answer of all fields, or of `ip`, names its address: it must be the key's.
        if key.fields.isEmpty || key.fields.contains("ip") {
            guard let ip = response.ip.flatMap({ IPAddress($0)?.description }), ip == key.address else { return nil }
        }
        return LookupCacheEntry(response: response, json: json)
    }

    /// Keeps the entries in the front tier, and on the server with one pipeline of `SET … PX`.
    public func store(_ entries: [LookupCacheEntry], for keys: [LookupCacheKey]) async {
        var commands: [any ValkeyCommand] = []
        let now = Date()
        for (entry, key) in zip(entries, keys) {
            local?.store(entry, for: key, timeToLive: localTimeToLive(for: key))
            guard let json = entry.json ?? (try? JSONEncoder().encode(entry.response)) else { continue }
            let value = StoredEntry.encode(json, for: key, at: now, secret: secret)
            let milliseconds = max(1, Int((timeToLive(for: key) * 1_000).rounded()))
            commands.append(SET(ValkeyKey(serverKey(for: key)), value: value, expiration: .milliseconds(milliseconds)))
        }
        guard !commands.isEmpty else { return }
        let pipeline = commands
        _ = await perform { client in
            for result in await client.execute(pipeline) {
                if case .failure(let error) = result { throw error }
            }
        }
    }

    private func localTimeToLive(for key: LookupCacheKey) -> TimeInterval {
        min(configuration.localTimeToLive, timeToLive(for: key))
    }

    /// Runs `operation` on the server within the budget, unless the server is resting after a
    /// failure; nil when it did not succeed in time. Reports the server's changes of state.
    private func perform<Value: Sendable>(
        _ operation: @escaping @Sendable (ValkeyClient) async throws -> Value
    ) async -> Value? {
        guard health.mayTry() else { return nil }
        let client = self.client
        let outcome = await OperationBudget.run(within: configuration.operationBudget) { try await operation(client) }
        switch outcome {
        case .success(let value):
            if health.succeeded() { onEvent?(.available) }
            return value
        case .failure(.callerCancelled):
            return nil
        case .failure(let failure):
            if health.failed(failure) { onEvent?(.unavailable(reason: failure.description)) }
            return nil
        }
    }
}

/// A reply of another shape than the command's.
struct UnexpectedReply: Error, CustomStringConvertible {
    let command: String
    var description: String { "an unexpected reply to \(command)" }
}
#endif
