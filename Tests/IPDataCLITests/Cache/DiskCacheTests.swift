import Foundation
import IPData
import IPDataLibC
import XCTest

@testable import ipdata_cli

/// The disk cache's parts: keys, lifetimes on an injected clock, the bound, damaged files, and
/// writers racing; no timings are asserted.
final class DiskCacheTests: XCTestCase {
    private let scope = CacheScope.api(baseURL: URL(string: "https://api.ipdata.co")!, key: "secret-key-123")
    private let json = Data(#"{"ip":"8.8.8.8","country_code":"US","threat":{"is_tor":false}}"#.utf8)

    private func key(_ address: String, _ fields: [String]? = nil, scope: CacheScope? = nil) -> CacheEntryKey {
        CacheEntryKey(lookup: LookupCacheKey(address: address, fields: fields)!, scope: scope ?? self.scope)
    }

    private func makeCache(
        maxEntries: Int = DiskCache.defaultMaxEntries, offset: TimeInterval = 0
    ) throws -> (DiskCache, String) {
        let directory = try makeTemporaryDirectory().appendingPathComponent("ipdata").path
        return (DiskCache(directory: directory, maxEntries: maxEntries, now: { Date() + offset }), directory)
    }

    /// Every regular file under `directory`.
    private func files(under directory: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                found.append(directory + "/" + name)
            }
        }
        return found
    }

    // MARK: Keys

    func testTheKeyIsTheCanonicalAddressTheFieldSetAndTheScope() {
        XCTAssertEqual(key("2001:DB8::1").fileName, key("2001:db8:0:0:0:0:0:1").fileName)
        XCTAssertEqual(key("8.8.8.8", ["ip", "asn"]).fileName, key("8.8.8.8", ["asn", "ip", "asn"]).fileName)
        XCTAssertNotEqual(key("8.8.8.8").fileName, key("8.8.8.8", ["ip"]).fileName)
        XCTAssertNotEqual(key("8.8.8.8").fileName, key("8.8.4.4").fileName)
        XCTAssertNotEqual(key("8.8.8.8").fileName, key("8.8.8.8", scope: .sandbox).fileName)
        let eu = CacheScope.api(baseURL: IPDataClient.euBaseURL, key: "secret-key-123")
        XCTAssertNotEqual(key("8.8.8.8").fileName, key("8.8.8.8", scope: eu).fileName)
        let otherKey = CacheScope.api(baseURL: URL(string: "https://api.ipdata.co")!, key: "other-key")
        XCTAssertNotEqual(key("8.8.8.8").fileName, key("8.8.8.8", scope: otherKey).fileName)
        let slash = CacheScope.api(baseURL: URL(string: "https://api.ipdata.co/")!, key: "secret-key-123")
        XCTAssertEqual(key("8.8.8.8").fileName, key("8.8.8.8", scope: slash).fileName)
        XCTAssertTrue(DiskCache.isEntryName(key("8.8.8.8").fileName))
    }

    func testTheKeyIsInNoNameAndNoFile() throws {
        let (cache, directory) = try makeCache()
        cache.store(json, for: key("8.8.8.8"))
        XCTAssertFalse(scope.text.contains("secret-key-123"))
        let paths = files(under: directory)
        XCTAssertEqual(paths.count, 1)
        for path in paths {
            XCTAssertFalse(path.contains("secret"), path)
            let content = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertNil(content.range(of: Data("secret-key-123".utf8)))
            XCTAssertNil(content.range(of: Data(SHA256.hex("ipdata API key\nsecret-key-123").utf8)))
        }
    }

    // MARK: Reading and writing

    func testAnEntryGivesBackTheSameBytesWithModes0700And0600() throws {
        let (cache, directory) = try makeCache()
        XCTAssertNil(cache.entry(for: key("8.8.8.8")))
        cache.store(json, for: key("8.8.8.8"))
        XCTAssertEqual(cache.entry(for: key("8.8.8.8")), json)
        cache.store(Data(#"{"ip":"1.1.1.1"}"#.utf8), for: key("1.1.1.1", ["ip"]))
        XCTAssertNil(cache.entry(for: key("1.1.1.1")), "another field set is another entry")
        var status = stat()
        XCTAssertEqual(stat(directory, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o700)
        let path = try XCTUnwrap(files(under: directory).first)
        XCTAssertEqual(stat((path as NSString).deletingLastPathComponent, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
    }

    func testASecondWriteReplacesTheEntry() throws {
        let (cache, _) = try makeCache()
        cache.store(json, for: key("8.8.8.8"))
        let newer = Data(#"{"ip":"8.8.8.8","country_code":"CA"}"#.utf8)
        cache.store(newer, for: key("8.8.8.8"))
        XCTAssertEqual(cache.entry(for: key("8.8.8.8")), newer)
        XCTAssertEqual(cache.info().entries, 1)
    }

    // MARK: Lifetimes

    func testAnAnswerWithoutThreatDataLives24Hours() throws {
        let (cache, directory) = try makeCache()
        let plain = key("8.8.8.8", ["ip", "country_code"])
        XCTAssertFalse(plain.lookup.includesThreat)
        cache.store(json, for: plain)
        for (hours, fresh) in [(23.0, true), (25.0, false)] {
            let later = DiskCache(directory: directory, now: { Date() + hours * 3600 })
            XCTAssertEqual(later.entry(for: plain) != nil, fresh, "after \(hours) h")
        }
    }

    func testAnAnswerWithThreatDataLives15Minutes() throws {
        let (cache, directory) = try makeCache()
        for threat in [key("8.8.8.8"), key("8.8.8.8", ["ip", "threat"])] {
            XCTAssertTrue(threat.lookup.includesThreat)
            cache.store(json, for: threat)
            for (minutes, fresh) in [(14.0, true), (16.0, false)] {
                let later = DiskCache(directory: directory, now: { Date() + minutes * 60 })
                XCTAssertEqual(later.entry(for: threat) != nil, fresh, "after \(minutes) min")
            }
        }
    }

    /// The full answer's fields other than `threat` serve for 24 hours, its threat data for 15
    /// minutes: a lookup of some fields is answered from it as long as an entry of its own would.
    func testAFullAnswerAnswersAnySubsetOfItsFieldsForTheSubsetsLifetime() throws {
        let (cache, directory) = try makeCache()
        cache.store(json, for: key("8.8.8.8"))
        let plain = key("8.8.8.8", ["country_code", "ip"])
        let threat = key("8.8.8.8", ["threat", "ip"])
        let table: [(minutes: Double, plain: Bool, threat: Bool, all: Bool)] = [
            (0, true, true, true), (14, true, true, true), (16, true, false, false), (23 * 60, true, false, false),
            (25 * 60, false, false, false),
        ]
        for row in table {
            let later = DiskCache(directory: directory, now: { Date() + row.minutes * 60 })
            XCTAssertEqual(
                later.entry(for: plain).map { String(decoding: $0, as: UTF8.self) },
                row.plain ? #"{"ip":"8.8.8.8","country_code":"US"}"# : nil, "after \(row.minutes) min")
            XCTAssertEqual(
                later.entry(for: threat).map { String(decoding: $0, as: UTF8.self) },
                row.threat ? #"{"ip":"8.8.8.8","threat":{"is_tor":false}}"# : nil, "after \(row.minutes) min")
            XCTAssertEqual(later.entry(for: key("8.8.8.8")) != nil, row.all, "after \(row.minutes) min")
        }
        XCTAssertNil(cache.entry(for: key("8.8.4.4", ["ip"])), "another address")
        let other = CacheScope.api(baseURL: URL(string: "https://eu-api.ipdata.co")!, key: "secret-key-123")
        XCTAssertNil(cache.entry(for: key("8.8.8.8", ["ip"], scope: other)), "another API")
        XCTAssertEqual(
            cache.entry(for: key("8.8.8.8", ["carrier"])), Data("{}".utf8), "a field the answer lacks: as the API")
    }

    func testASubsetsOwnEntryIsReadFirst() throws {
        let (cache, _) = try makeCache()
        cache.store(json, for: key("8.8.8.8"))
        let own = Data(#"{"ip":"8.8.8.8","country_code":"CA"}"#.utf8)
        cache.store(own, for: key("8.8.8.8", ["ip", "country_code"]))
        XCTAssertEqual(cache.entry(for: key("8.8.8.8", ["ip", "country_code"])), own)
    }

    func testAnEntryFromFarInTheFutureIsAMiss() throws {
        let (cache, directory) = try makeCache()
        cache.store(json, for: key("8.8.8.8", ["ip"]))
        let past = DiskCache(directory: directory, now: { Date() - 2 * 86_400 })
        XCTAssertNil(past.entry(for: key("8.8.8.8", ["ip"])))
    }

    // MARK: Damage

    func testADamagedEntryIsAMissAndIsRemoved() throws {
        let (cache, directory) = try makeCache()
        let entry = key("8.8.8.8")
        cache.store(json, for: entry)
        let path = try XCTUnwrap(files(under: directory).first)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let damaged: [Data] = [
            whole.prefix(whole.count - 5),  // cut short
            whole.prefix(10),  // cut in the header
            Data(),  // empty (a crash after the rename, before the data reached the disk)
            whole + Data("}".utf8),  // longer than it says
            Data("garbage".utf8),
            DiskCache.entryBytes(json, key: "8.8.4.4#"),  // another key's entry
            Data(
                String(decoding: whole, as: UTF8.self).replacingOccurrences(
                    of: "ipdata-cache 1", with: "ipdata-cache 9"
                ).utf8),
        ]
        for bytes in damaged {
            try bytes.write(to: URL(fileURLWithPath: path))
            XCTAssertNil(cache.entry(for: entry), "\(bytes.count) bytes")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "a damaged entry is removed")
        }
        cache.store(json, for: entry)
        XCTAssertEqual(cache.entry(for: entry), json)
    }

    func testEntryBytesRoundTrip() {
        let bytes = DiskCache.entryBytes(json, key: "8.8.8.8#")
        XCTAssertEqual(DiskCache.entryJSON(Array(bytes), key: "8.8.8.8#"), json)
        XCTAssertNil(DiskCache.entryJSON(Array(bytes), key: "8.8.8.8#ip"))
        let withLineEnd = json + Data("\n".utf8)
        XCTAssertEqual(
            DiskCache.entryJSON(Array(DiskCache.entryBytes(withLineEnd, key: "8.8.8.8#")), key: "8.8.8.8#"), withLineEnd
        )
    }

    // MARK: The bound

    /// `count` addresses whose entries fall in one folder.
    private func addressesInOneFolder(_ count: Int) -> [String] {
        var byFolder: [String: [String]] = [:]
        for index in 0..<20_000 {
            let address = "10.\(index / 65_536).\(index / 256 % 256).\(index % 256)"
            let folder = String(key(address).fileName.prefix(2))
            byFolder[folder, default: []].append(address)
            if byFolder[folder]!.count == count { return byFolder[folder]! }
        }
        return []
    }

    func testAFolderPastItsShareLosesItsOldestEntries() throws {
        // 4 entries a folder.
        let (cache, directory) = try makeCache(maxEntries: 4 * DiskCache.shardCount)
        let addresses = addressesInOneFolder(8)
        XCTAssertEqual(addresses.count, 8)
        let folder = directory + "/" + String(key(addresses[0]).fileName.prefix(2))
        for address in addresses { cache.store(json, for: key(address)) }
        XCTAssertLessThanOrEqual(files(under: directory).count, 4, "stores keep the folder within its share")
        // Ages set by hand: the first ones written are the oldest.
        for address in addresses { cache.store(json, for: key(address)) }
        for (index, address) in addresses.enumerated() {
            let path = folder + "/" + key(address).fileName
            try? FileManager.default.setAttributes(
                [.modificationDate: Date() - TimeInterval(100 - index)], ofItemAtPath: path)
        }
        let present = addresses.filter { FileManager.default.fileExists(atPath: folder + "/" + key($0).fileName) }
        cache.evict(folder: folder)
        let kept = addresses.filter { FileManager.default.fileExists(atPath: folder + "/" + key($0).fileName) }
        XCTAssertLessThanOrEqual(kept.count, 4)
        XCTAssertEqual(kept, Array(present.suffix(kept.count)), "the newest stay")
        XCTAssertNotNil(cache.entry(for: key(addresses.last!)))
    }

    func testEvictionRemovesTemporaryFilesACrashLeft() throws {
        let (cache, directory) = try makeCache()
        cache.store(json, for: key("8.8.8.8"))
        let folder = directory + "/" + String(key("8.8.8.8").fileName.prefix(2))
        let stale = folder + "/.tmp-1-1-1"
        let recent = folder + "/.tmp-2-2-2"
        try Data("{\"ip\":".utf8).write(to: URL(fileURLWithPath: stale))
        try Data("{\"ip\":".utf8).write(to: URL(fileURLWithPath: recent))
        try FileManager.default.setAttributes([.modificationDate: Date() - 3600], ofItemAtPath: stale)
        cache.evict(folder: folder)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recent), "another process may be writing it")
        XCTAssertEqual(cache.info().entries, 1, "temporary files are no entries")
    }

    // MARK: Concurrency

    func testWritersAndReadersRacingNeverSeeAPartEntry() throws {
        let (cache, directory) = try makeCache(maxEntries: DiskCache.shardCount)
        let first = Data(("{\"ip\":\"8.8.8.8\",\"pad\":\"" + String(repeating: "a", count: 20_000) + "\"}").utf8)
        let second = Data(("{\"ip\":\"8.8.8.8\",\"pad\":\"" + String(repeating: "b", count: 30_000) + "\"}").utf8)
        let entry = key("8.8.8.8")
        let neighbours = (0..<200).map { key("10.0.\($0 / 256).\($0 % 256)") }
        let seen = Locked<Set<Int>>([])
        // Two writers of one entry, readers, and an evicting, clearing neighbour.
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let other = DiskCache(directory: directory, maxEntries: DiskCache.shardCount)
            for round in 0..<200 {
                switch worker {
                case 0: cache.store(first, for: entry)
                case 1: other.store(second, for: entry)
                case 2: other.store(first, for: neighbours[round])
                case 3: if round % 50 == 0 { other.clear() }
                default:
                    if let read = cache.entry(for: entry) { seen.withLock { _ = $0.insert(read.count) } }
                }
            }
        }
        XCTAssertTrue(seen.withLock { $0 }.isSubset(of: [first.count, second.count]), "\(seen.withLock { $0 })")
        // The entry may have been cleared or evicted last: then it is a miss, never a part.
        if let last = cache.entry(for: entry) { XCTAssertTrue(last == first || last == second) }
        cache.store(second, for: entry)
        XCTAssertEqual(cache.entry(for: entry), second)
        XCTAssertFalse(files(under: directory).contains { $0.contains(".tmp-") }, "no temporary file is left")
    }

    // MARK: info and clear

    func testInfoCountsAndClearRemovesOnlyTheCachesFiles() throws {
        let (cache, directory) = try makeCache()
        XCTAssertEqual(cache.info(), DiskCache.Info())
        cache.store(json, for: key("8.8.8.8"))
        cache.store(json, for: key("1.1.1.1", ["ip"]))
        let info = cache.info()
        XCTAssertEqual(info.entries, 2)
        XCTAssertEqual(info.live, 2)
        XCTAssertEqual(info.bytes, 2 * DiskCache.entryBytes(json, key: "8.8.8.8#").count + 2)
        XCTAssertNotNil(info.oldest)
        let notes = directory + "/notes.txt"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: notes))
        try FileManager.default.createDirectory(atPath: directory + "/photos", withIntermediateDirectories: true)
        XCTAssertEqual(cache.clear(), 2)
        XCTAssertEqual(cache.info().entries, 0)
        XCTAssertNil(cache.entry(for: key("8.8.8.8")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: notes))
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/photos"))
    }

    /// Live: some lookup still reads it. A full answer or one without threat data serves for
    /// 24 hours; an answer of fields with `threat` for 15 minutes; a damaged file never.
    func testInfoCountsLiveAndExpiredEntriesByWhatALookupStillReads() throws {
        let (cache, directory) = try makeCache()
        for index in 0..<30 {
            let address = "9.0.0.\(index)"
            switch index % 3 {
            case 0: cache.store(json, for: key(address))
            case 1: cache.store(json, for: key(address, ["ip", "threat"]))
            default: cache.store(json, for: key(address, ["ip", "country_code"]))
            }
        }
        let folder = directory + "/" + String(key("1.2.3.4").fileName.prefix(2))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: folder + "/" + key("1.2.3.4").fileName))
        let table: [(minutes: Double, live: Int)] = [(1, 30), (20, 20), (23 * 60, 20), (25 * 60, 0)]
        for row in table {
            let info = DiskCache(directory: directory, now: { Date() + row.minutes * 60 }).info()
            XCTAssertEqual(info.entries, 31, "after \(row.minutes) min")
            XCTAssertEqual(info.live, row.live, "after \(row.minutes) min")
            XCTAssertEqual(info.expired, 31 - row.live, "after \(row.minutes) min")
        }
    }

    /// The space on disk is what `du` reports: the blocks of the folders and of every file,
    /// temporary ones too, not the bytes of the answers (a 4 KiB block holds one small entry).
    func testInfoCountsTheSpaceOnDiskAsDuDoes() throws {
        let (cache, directory) = try makeCache()
        let keys = (0..<300).map { key("10.0.\($0 / 256).\($0 % 256)") }
        for entry in keys { cache.store(json, for: entry) }
        let folder = directory + "/" + String(key("8.8.8.8").fileName.prefix(2))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(count: 50_000).write(to: URL(fileURLWithPath: folder + "/.tmp-1-1-1"))
        let info = cache.info()
        let du = String(decoding: try ToolRun.output("du", ["-sk", directory]), as: UTF8.self)
        let kibibytes = try XCTUnwrap(Int(du.prefix { $0.isNumber }), du)
        XCTAssertEqual(info.diskBytes, kibibytes * 1024, du)
        XCTAssertEqual(info.entries, 300)
        XCTAssertEqual(
            info.bytes, keys.map { DiskCache.entryBytes(json, key: $0.lookup.description).count }.reduce(0, +))
        XCTAssertGreaterThan(info.diskBytes, info.bytes + 50_000)
    }

    func testTheLocationAndTheBoundComeFromTheEnvironment() throws {
        XCTAssertEqual(DiskCache.location(environment: ["IPDATA_CACHE_DIR": "/x", "HOME": "/h"]), "/x")
        XCTAssertEqual(DiskCache.location(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]), "/c/ipdata")
        XCTAssertEqual(DiskCache.location(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]), "/h/.cache/ipdata")
        XCTAssertEqual(DiskCache.location(environment: ["HOME": "/h"]), "/h/.cache/ipdata")
        XCTAssertNil(DiskCache.location(environment: [:]))
        XCTAssertEqual(
            DiskCache.location(environment: ["IPDATA_CACHE_DIR": "here"]),
            FileManager.default.currentDirectoryPath + "/here")
        XCTAssertEqual(try DiskCache.maxEntries(environment: [:]), DiskCache.defaultMaxEntries)
        XCTAssertEqual(try DiskCache.maxEntries(environment: ["IPDATA_CACHE_MAX_ENTRIES": "5000"]), 5000)
        XCTAssertThrowsError(try DiskCache.maxEntries(environment: ["IPDATA_CACHE_MAX_ENTRIES": "lots"]))
        XCTAssertThrowsError(try DiskCache.maxEntries(environment: ["IPDATA_CACHE_MAX_ENTRIES": "0"]))
    }

    func testAFolderThatCannotBeWrittenIsAMissAndSaysWhy() throws {
        let parent = try makeTemporaryDirectory()
        let file = parent.appendingPathComponent("a-file")
        try Data().write(to: file)
        let cache = DiskCache(directory: file.path + "/ipdata")
        cache.store(json, for: key("8.8.8.8"))
        XCTAssertNil(cache.entry(for: key("8.8.8.8")))
        XCTAssertNotNil(cache.takeWriteProblem())
        XCTAssertNil(cache.takeWriteProblem(), "said once")
    }
}

/// The answers of a run: counted, and keyed by the run's fields.
final class CachedAnswersTests: XCTestCase {
    func testHitsAreCountedAndNoAddressIsNeverKept() throws {
        let directory = try makeTemporaryDirectory().appendingPathComponent("ipdata").path
        let answers = CachedAnswers(cache: DiskCache(directory: directory), scope: .sandbox, fields: ["ip"])
        let json = Data(#"{"ip":"8.8.8.8"}"#.utf8)
        answers.keep(json, for: "8.8.8.8")
        answers.keep(json, for: "not an address")
        XCTAssertEqual(answers.answer(for: "8.8.8.8"), json)
        XCTAssertNil(answers.answer(for: "1.1.1.1"))
        XCTAssertNil(answers.answer(for: "not an address"))
        XCTAssertEqual(answers.hits, 1)
        XCTAssertEqual(DiskCache(directory: directory).info().entries, 1)
        let allFields = CachedAnswers(cache: DiskCache(directory: directory), scope: .sandbox, fields: nil)
        XCTAssertNil(allFields.answer(for: "8.8.8.8"), "another field set")
    }

    func testADryRunCountsDistinctAddressesAndTheCachesAnswers() async throws {
        let directory = try makeTemporaryDirectory().appendingPathComponent("ipdata").path
        let answers = CachedAnswers(cache: DiskCache(directory: directory), scope: .sandbox, fields: nil)
        answers.keep(Data(#"{"ip":"8.8.8.8"}"#.utf8), for: "8.8.8.8")
        let input = ["8.8.8.8", "1.1.1.1", "2001:DB8::1", "2001:db8::1", "nope", "nope", "8.8.8.8"]
        let addresses = AsyncStream { continuation in
            for address in input { continuation.yield(address) }
            continuation.finish()
        }
        let estimate = try await DryRun.count(addresses, cache: answers)
        // 2001:db8::1 is a documentation address: answered locally, not sent.
        XCTAssertEqual(estimate, DryRun(addresses: 7, distinct: 4, notAddresses: 1, answeredLocally: 1, cached: 1))
        XCTAssertEqual(estimate.toSend, 1)
        XCTAssertEqual(estimate.requests(singleLookups: false), 1)
        XCTAssertEqual(estimate.requests(singleLookups: true), 1)
        XCTAssertEqual(
            estimate.text(singleLookups: false),
            "dry run: 7 addresses read, 4 distinct; of the 4 distinct addresses: 1 in the cache, 1 answered locally "
                + "(private or reserved), 1 invalid, 1 to send in 1 bulk request; nothing was sent")
        let sentAsIs = try await DryRun.count(
            AsyncStream { continuation in
                for address in input { continuation.yield(address) }
                continuation.finish()
            }, cache: answers, answersNonPublicLocally: false)
        XCTAssertEqual(sentAsIs.toSend, 2, "without local answers, the documentation address is sent")
        XCTAssertEqual(DryRun(addresses: 250, distinct: 250).requests(singleLookups: false), 3)
    }

    func testTheSummarySaysHowManyAnswersCameFromTheCache() {
        XCTAssertEqual(
            Progress.summaryText(records: 10, failures: 0, requests: 0, cached: 10, elapsed: 0.5),
            "10 records, 0 failed, 0 requests sent, 10 answers from the cache, 0.5 s elapsed")
        XCTAssertEqual(
            Progress.summaryText(records: 1, failures: 0, requests: 1, elapsed: 0.5),
            "1 record, 0 failed, 1 request sent, 0.5 s elapsed")
    }
}
