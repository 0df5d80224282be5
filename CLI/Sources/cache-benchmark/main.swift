// cache-benchmark [COUNT] [ROUNDS]: the disk cache's store alone, without the CLI or a server.
// Stores COUNT (10,000) distinct answers of real size (the API answers in
// Tests/IPDataTests/Fixtures/lookup, each under another address) and reads them back, in bulk
// (100 a call, one transaction each, as a bulk answer is kept) and one at a time, each kind in a
// fresh cache folder (which a first run reads, missing, before it stores); then reads fields of the full answers, and decodes the answers alone (what
// a read pays for its model). Prints microseconds per answer and bytes on disk per answer, as
// medians of ROUNDS (3) interleaved rounds. Build it in release:
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

/// Seconds `body` takes.
func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
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
var figures: [String: [Double]] = [:]

for _ in 0..<rounds {
    // In bulk: one call and one transaction a hundred answers.
    let (bulk, bulkFolder) = try freshStore()
    figures["read of a miss (empty cache), 100 a call", default: []].append(
        seconds {
            for start in stride(from: 0, to: count, by: batch) {
                _ = bulk.entries(for: Array(keys[start..<min(start + batch, count)]))
            }
        } / Double(count) * 1e6)
    figures["store, 100 a call", default: []].append(
        seconds {
            for start in stride(from: 0, to: count, by: batch) {
                let end = min(start + batch, count)
                bulk.store(Array(entries[start..<end]), for: Array(keys[start..<end]))
            }
        } / Double(count) * 1e6)
    var hits = 0
    figures["read, 100 a call", default: []].append(
        seconds {
            for start in stride(from: 0, to: count, by: batch) {
                hits += bulk.entries(for: Array(keys[start..<min(start + batch, count)])).filter { $0 != nil }.count
            }
        } / Double(count) * 1e6)
    precondition(hits == count, "read back \(hits) of \(count)")
    let fieldKeys = keys.map { LookupCacheKey(address: $0.address, fields: ["ip", "country_code", "asn"])! }
    figures["read 3 fields of a full answer, 100 a call", default: []].append(
        seconds {
            for start in stride(from: 0, to: count, by: batch) {
                _ = bulk.entries(for: Array(fieldKeys[start..<min(start + batch, count)]))
            }
        } / Double(count) * 1e6)
    let withWAL = bulk.database.info().diskBytes
    bulk.database.close()
    let reopened = try CacheDatabase.open(CacheConfiguration(directory: bulkFolder))
    figures["bytes on disk per answer (du), after the last close", default: []].append(
        Double(reopened.info().diskBytes) / Double(count))
    figures["bytes on disk per answer (du), WAL included", default: []].append(Double(withWAL) / Double(count))
    reopened.close()

    // One at a time: a transaction each, as single lookups keep their answers.
    let (single, _) = try freshStore()
    figures["store, 1 a call", default: []].append(
        seconds { for (key, entry) in zip(keys, entries) { single.store(entry, for: key) } } / Double(count) * 1e6)
    figures["read, 1 a call", default: []].append(
        seconds { for key in keys { _ = single.entry(for: key) } } / Double(count) * 1e6)
    single.database.close()

    // What a read pays for its model alone.
    let decoder = JSONDecoder()
    figures["decode alone (JSONDecoder, IPResponse)", default: []].append(
        seconds { for entry in entries { _ = try? decoder.decode(IPResponse.self, from: entry.json!) } }
            / Double(count) * 1e6)
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
                format: "%8.1f µs per answer  (rounds: %@)", median(values),
                values.map { String(format: "%.1f", $0) }.joined(separator: ", ")))
}
for name in ["bytes on disk per answer (du), after the last close", "bytes on disk per answer (du), WAL included"] {
    let values = figures[name]!
    print(name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8.0f", median(values)))
}
