// cache-race FOLDER WORKER ROUNDS: one of several processes that share the cache in FOLDER at
// once, for DiskCacheTests. Each round it stores its own whole answer for 8.8.8.8 (of a size and
// a letter of its own), an answer for a neighbour of its own, and reads 8.8.8.8 back; worker 0
// also empties the cache every 50 rounds. A read must be a miss or one of the workers' answers,
// whole: anything else, or a store that throws, exits 1. Prints how many reads it made and hit.
import DiskCache
import Foundation
import IPData

let arguments = CommandLine.arguments
guard arguments.count == 4, let worker = Int(arguments[2]), let rounds = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: cache-race FOLDER WORKER ROUNDS\n".utf8))
    exit(2)
}

/// The answer worker `index` stores for 8.8.8.8: 20,000 + 1,000 × index bytes of its letter.
func answer(of index: Int) -> Data {
    let pad = String(
        repeating: Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(index % 26))), count: 20_000 + 1_000 * index)
    return Data(#"{"ip":"8.8.8.8","pad":"\#(pad)"}"#.utf8)
}

let valid = Set((0..<8).map(answer(of:)))
let shared = LookupCacheKey(address: "8.8.8.8", fields: nil)!
let database: CacheDatabase
do {
    database = try CacheDatabase.open(CacheConfiguration(directory: arguments[1]))
} catch {
    FileHandle.standardError.write(Data("cache-race: \(error)\n".utf8))
    exit(1)
}
let store = SQLiteLookupStore(database: database, scope: .sandbox)
let mine = answer(of: worker)
let response = try JSONDecoder().decode(IPResponse.self, from: mine)
var hits = 0
for round in 0..<rounds {
    store.store(LookupCacheEntry(response: response, json: mine), for: shared)
    let neighbour = "10.\(worker).\(round / 256 % 256).\(round % 256)"
    let json = Data(#"{"ip":"\#(neighbour)"}"#.utf8)
    store.store(
        LookupCacheEntry(response: try JSONDecoder().decode(IPResponse.self, from: json), json: json),
        for: LookupCacheKey(address: neighbour, fields: nil)!)
    if worker == 0, round % 50 == 49 { database.clear() }
    if let read = store.entry(for: shared) {
        guard let bytes = read.json, valid.contains(bytes), read.response.ip == "8.8.8.8" else {
            FileHandle.standardError.write(
                Data("cache-race: worker \(worker) read a part answer in round \(round)\n".utf8))
            exit(1)
        }
        hits += 1
    }
}
print("worker \(worker): \(rounds) reads, \(hits) hits")
