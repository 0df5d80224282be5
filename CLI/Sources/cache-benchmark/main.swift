// cache-benchmark [COUNT] [ROUNDS]: the disk cache's store alone, without the CLI or a server.
// Stores COUNT (10,000) distinct answers of real size (the API answers in
// Tests/IPDataTests/Fixtures/lookup, each under another address) and reads them back, in bulk
// (100 a call, one transaction each, as a bulk answer is kept) and one at a time, each kind in a
// fresh cache folder (which a first run reads, missing, before it stores); then reads fields of
// the full answers, and decodes the answers alone (what a read pays for its model). Prints
// microseconds per answer (wall clock, and the process's CPU time) and bytes on disk per answer,
// as medians of ROUNDS (3) interleaved rounds. Build it in release:
//
//     swift run -c release --package-path CLI cache-benchmark
import DiskCache
import Foundation
import IPData

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 10_000
let rounds = arguments.dropFirst().first ?? 3
let batch = 100

/// The fixtures' answers, each under a distinct address of its own: COUNT of them.
func answers() throws -> [(key: LookupCacheKey, entry: LookupCacheEntry)] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../../Tests/IPDataTests/Fixtures/lookup"
    ).standardized
    let fixtures = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        .sorted().map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    precondition(!fixtures.isEmpty, "no fixtures in \(folder.path)")
    let decoder = JSONDecoder()
    return try (0..<count).map { index in
        let fixture = fixtures[index % fixtures.count]
        let address = "9.\(index / 65_536).\(index / 256 % 256).\(index % 256)"
        let original = try decoder.decode(IPResponse.self, from: fixture).ip!
        let text = String(decoding: fixture, as: UTF8.self)
        let json = Data(text.replacingOccurrences(of: "\"\(original)\"", with: "\"\(address)\"").utf8)
        let response = try decoder.decode(IPResponse.self, from: json)
        precondition(response.ip == address)
        return (LookupCacheKey(address: address, fields: nil)!, LookupCacheEntry(response: response, json: json))
    }
}

/// The CPU time of this process so far, in seconds: on a busy machine, what the store itself
/// costs, whatever the wait for a core.
func processorSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Each kind's microseconds per answer in each round: wall-clock time, and CPU time.
var figures: [String: [Double]] = [:]
var processorFigures: [String: [Double]] = [:]

/// Runs `body`, which handles `count` answers, and notes its microseconds per answer as `name`'s.
@MainActor func measure(_ name: String, _ body: () -> Void) {
    let start = DispatchTime.now().uptimeNanoseconds
    let processorStart = processorSeconds()
    body()
    processorFigures[name, default: []].append((processorSeconds() - processorStart) / Double(count) * 1e6)
    figures[name, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(count))
}

func freshStore() throws -> (SQLiteLookupStore, String) {
    let folder = NSTemporaryDirectory() + "cache-benchmark-\(UUID().uuidString)/ipdata"
    let database = try CacheDatabase.open(CacheConfiguration(directory: folder))
    return (
        SQLiteLookupStore(
            database: database, scope: .api(baseURL: URL(string: "https://api.ipdata.co")!, key: "benchmark")), folder
    )
}

let all = try answers()
let keys = all.map(\.key)
let entries = all.map(\.entry)
let jsonBytes = entries.reduce(0) { $0 + $1.json!.count }
let fieldKeys = keys.map { LookupCacheKey(address: $0.address, fields: ["ip", "country_code", "asn"])! }
/// Bytes on disk per answer, in each round.
var sizes: [String: [Double]] = [:]

/// Calls `body` with each hundred of `keys` in turn.
func inHundreds(_ keys: [LookupCacheKey], _ body: (Range<Int>) -> Void) {
    for start in stride(from: 0, to: keys.count, by: batch) { body(start..<min(start + batch, keys.count)) }
}

for _ in 0..<rounds {
    // In bulk: one call and one transaction a hundred answers.
    let (bulk, bulkFolder) = try freshStore()
    measure("read of a miss (empty cache), 100 a call") {
        inHundreds(keys) { _ = bulk.entries(for: Array(keys[$0])) }
    }
    measure("store, 100 a call") {
        inHundreds(keys) { bulk.store(Array(entries[$0]), for: Array(keys[$0])) }
    }
    var hits = 0
    measure("read, 100 a call") {
        inHundreds(keys) { hits += bulk.entries(for: Array(keys[$0])).filter { $0 != nil }.count }
    }
    precondition(hits == count, "read back \(hits) of \(count)")
    measure("read 3 fields of a full answer, 100 a call") {
        inHundreds(fieldKeys) { _ = bulk.entries(for: Array(fieldKeys[$0])) }
    }
    let withWAL = bulk.database.info().diskBytes
    bulk.database.close()
    let reopened = try CacheDatabase.open(CacheConfiguration(directory: bulkFolder))
    sizes["bytes on disk per answer (du), after the last close", default: []].append(
        Double(reopened.info().diskBytes) / Double(count))
    sizes["bytes on disk per answer (du), WAL included", default: []].append(Double(withWAL) / Double(count))
    reopened.close()

    // One at a time: a transaction each, as single lookups keep their answers.
    let (single, _) = try freshStore()
    measure("store, 1 a call") { for (key, entry) in zip(keys, entries) { single.store(entry, for: key) } }
    measure("read, 1 a call") { for key in keys { _ = single.entry(for: key) } }
    single.database.close()

    // What a read pays for its model alone.
    let decoder = JSONDecoder()
    measure("decode alone (JSONDecoder, IPResponse)") {
        for entry in entries { _ = try? decoder.decode(IPResponse.self, from: entry.json!) }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

print(
    "\(count) distinct answers, \(jsonBytes / count) bytes of JSON each on average, \(rounds) rounds, "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
for name in [
    "read of a miss (empty cache), 100 a call", "store, 100 a call", "read, 100 a call",
    "read 3 fields of a full answer, 100 a call", "store, 1 a call",
    "read, 1 a call", "decode alone (JSONDecoder, IPResponse)",
] {
    let values = figures[name]!
    print(
        name.padding(toLength: 52, withPad: " ", startingAt: 0)
            + String(
                format: "%8.1f µs per answer, CPU %6.1f µs  (rounds: %@)", median(values),
                median(processorFigures[name]!), values.map { String(format: "%.1f", $0) }.joined(separator: ", ")))
}
for name in ["bytes on disk per answer (du), after the last close", "bytes on disk per answer (du), WAL included"] {
    let values = sizes[name]!
    print(name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8.0f", median(values)))
}
