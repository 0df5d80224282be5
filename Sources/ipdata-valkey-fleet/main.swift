// One process of the fleet that proves IPDataValkey (scripts/valkey-fleet.sh starts several):
// lookups of a set of addresses against the API (the local test server), through a
// ValkeyLookupStore that every process shares, or through a LookupCache of its own.
//
//   ipdata-valkey-fleet --base-url URL --key KEY [--valkey-port PORT --prefix PREFIX]
//       [--addresses 5000] [--lookups 10000] [--seed 1] [--concurrency 16] [--budget-ms MS, the store's default]
//       [--recovery-wait 20]
//
// The lookups visit the addresses in a shuffled order (another each round and process), each
// address as often as the others; --seed names the process (and its probe key). Prints one JSON
// line: lookups, failures, the store's outages and recoveries, and whether the store answers at
// the end; exits 1 when a lookup failed.
import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if Valkey
import IPDataValkey
import Logging
import Synchronization
import Valkey

/// A value the fleet's tasks share, behind a lock.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}

/// The options, from `--name value` pairs.
struct Options {
    var baseURL = URL(string: "https://127.0.0.1:18443")!
    var key = "test-key"
    var valkeyPort: Int?
    var prefix = "ipdata-fleet:"
    var addresses = 5_000
    var lookups = 10_000
    var seed: UInt64 = 1
    var concurrency = 16
    var recoveryWait = 20.0
    var budgetMilliseconds: Int?

    init(_ arguments: [String]) {
        var values: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else { Self.fail("expected --name value: \(name)") }
            values[String(name.dropFirst(2))] = value
        }
        for (name, value) in values {
            switch name {
            case "base-url": baseURL = Self.required(URL(string: value), "bad URL: \(value)")
            case "key": key = value
            case "valkey-port": valkeyPort = Self.required(Int(value), "bad port: \(value)")
            case "prefix": prefix = value
            case "addresses": addresses = Self.required(Int(value), "bad count: \(value)")
            case "lookups": lookups = Self.required(Int(value), "bad count: \(value)")
            case "seed": seed = Self.required(UInt64(value), "bad seed: \(value)")
            case "concurrency": concurrency = Self.required(Int(value), "bad concurrency: \(value)")
            case "budget-ms": budgetMilliseconds = Self.required(Int(value), "bad milliseconds: \(value)")
            case "recovery-wait": recoveryWait = Self.required(Double(value), "bad seconds: \(value)")
            default: Self.fail("unknown option --\(name)")
            }
        }
    }

    /// `value`, or the end of the process with `message`.
    static func required<Value>(_ value: Value?, _ message: String) -> Value {
        guard let value else { fail(message) }
        return value
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("ipdata-valkey-fleet: \(message)\n".utf8))
        exit(2)
    }
}

/// The `count` addresses, public IPv4 ones in 8.8.0.0/16 (1 to 250 in the last byte).
func addresses(_ count: Int) -> [String] {
    (0..<count).map { "8.8.\($0 / 250 % 256).\($0 % 250 + 1)" }
}

/// `lookups` addresses: whole shuffled rounds of `all`, each round in another order.
func schedule(_ all: [String], lookups: Int) -> [String] {
    var order: [String] = []
    order.reserveCapacity(lookups)
    while order.count < lookups { order += all.shuffled().prefix(lookups - order.count) }
    return order
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func main() async -> Int32 {
    let options = Options(Array(CommandLine.arguments.dropFirst()))
    let all = addresses(options.addresses)
    let order = schedule(all, lookups: options.lookups)
    let events = Shared<[ValkeyLookupStore.Event]>([])

    var configuration = IPDataClient.Configuration(
        baseURL: options.baseURL, connection: .owned(.ephemeral), maximumConcurrentRequests: options.concurrency)
    var store: ValkeyLookupStore?
    var valkeyRun: Task<Void, Never>?
    if let port = options.valkeyPort {
        let valkey = ValkeyClient(.hostname("127.0.0.1", port: port), logger: Logger(label: "ipdata-valkey-fleet"))
        valkeyRun = Task { await valkey.run() }
        let shared = ValkeyLookupStore(
            client: valkey,
            configuration: {
                var configuration = ValkeyLookupStore.Configuration(
                    keyPrefix: options.prefix, retryInterval: .milliseconds(200))
                if let budget = options.budgetMilliseconds { configuration.operationBudget = .milliseconds(budget) }
                return configuration
            }(),
            onEvent: { event in events.withLock { $0.append(event) } })
        configuration.cacheStore = shared
        store = shared
    } else {
        configuration.cache = LookupCache(maximumEntries: options.addresses)
    }
    let client = IPDataClient(apiKey: options.key, configuration: configuration)

    let start = Date()
    let next = Shared(0)
    let failures = Shared<(count: Int, first: String?)>((0, nil))
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<max(1, options.concurrency) {
            group.addTask {
                while true {
                    let index = next.withLock { index -> Int in
                        defer { index += 1 }
                        return index
                    }
                    guard index < order.count else { return }
                    do {
                        let answer = try await client.lookup(order[index])
                        guard answer.ip == order[index] else {
                            throw IPDataError.badRequest("answer for \(answer.ip ?? "?")")
                        }
                    } catch {
                        failures.withLock { failures in
                            failures.count += 1
                            if failures.first == nil { failures.first = "\(order[index]): \(error)" }
                        }
                    }
                }
            }
        }
    }
    let seconds = Date().timeIntervalSince(start)

    // After an outage, the store must answer again: probe it with a key no lookup used (so the
    // front tier cannot answer) until it reports that the server is back.
    let probe = LookupCacheKey(address: "8.8.8.8", fields: ["fleet-probe-\(options.seed)"])!
    let deadline = Date().addingTimeInterval(options.recoveryWait)
    func isDown() -> Bool {
        events.withLock { events in events.last.map { if case .unavailable = $0 { true } else { false } } ?? false }
    }
    while let store, isDown(), Date() < deadline {
        _ = await store.entry(for: probe)
        try? await Task.sleep(for: .milliseconds(100))
    }
    valkeyRun?.cancel()

    let seen = events.withLock { $0 }
    let outages = seen.filter { if case .unavailable = $0 { true } else { false } }.count
    let recoveries = seen.filter { $0 == .available }.count
    let reasons = Set(seen.compactMap { if case .unavailable(let reason) = $0 { reason } else { nil } })
    let (failed, firstError) = failures.withLock { ($0.count, $0.first) }
    let summary: [String: Any] = [
        "seed": options.seed, "lookups": order.count, "failures": failed, "first_error": firstError ?? NSNull(),
        "shared": store != nil, "outages": outages, "unavailable_reasons": reasons.sorted(), "recoveries": recoveries,
        "resumed": !isDown(),
        "seconds": (seconds * 100).rounded() / 100,
    ]
    let line = (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data()
    print(String(decoding: line, as: UTF8.self))
    return failed == 0 ? 0 : 1
}

if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    exit(await main())
} else {
    Options.fail("needs macOS 15 or later")
}
#else
FileHandle.standardError.write(Data("ipdata-valkey-fleet: built without the Valkey trait (--traits Valkey)\n".utf8))
exit(2)
#endif
