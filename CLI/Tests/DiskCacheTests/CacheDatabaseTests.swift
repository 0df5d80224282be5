import CLILibC
import CLITestSupport
import Foundation
import IPData
import XCTest

@testable import DiskCache

/// The database under the store: damage and rebuilding, the bound, `info()` and `clear()`, and
/// where it is.
final class CacheDatabaseTests: XCTestCase {
    // MARK: Damage

    /// The integrity check of SQLite itself, on a connection of its own.
    private func integrity(of cache: TestCache) throws -> String? {
        try SQLiteConnection(path: cache.databasePath, busyTimeout: 1_000).text("PRAGMA integrity_check")
    }

    /// A cache of `count` answers, closed: its WAL folded into the database.
    private func filledCache(_ count: Int) throws -> TestCache {
        let cache = try makeTestCache()
        let store = try cache.store()
        let keys = (0..<count).map { key("9.0.\($0 / 256).\($0 % 256)") }
        let pretty = try fixture("8.8.8.8.SYNTHETIC.ipdata-java-fixture-2026.json")
        let text = String(decoding: pretty, as: UTF8.self)
        store.store(
            keys.map { entry(text.replacingOccurrences(of: #""8.8.8.8""#, with: "\"\($0.address)\"")) }, for: keys)
        store.database.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.databasePath + "-wal"))
        return cache
    }

    func testAGarbageFileIsAMissAndIsBuiltAgain() throws {
        for garbage in [Data("garbage".utf8), Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })] {
            let cache = try filledCache(20)
            try garbage.write(to: URL(fileURLWithPath: cache.databasePath))
            let store = try cache.store()
            XCTAssertNil(store.entry(for: key("9.0.0.1")))
            store.store(entry(#"{"ip":"9.0.0.1"}"#), for: key("9.0.0.1"))
            XCTAssertEqual(store.text(for: key("9.0.0.1")), #"{"ip":"9.0.0.1"}"#)
            XCTAssertEqual(store.database.info().entries, 1)
            XCTAssertEqual(try integrity(of: cache), "ok")
            XCTAssertEqual(mode(of: cache.databasePath), 0o600)
        }
    }

    /// A database cut short anywhere: what is left may still answer (each answer is checked),
    /// the rest misses, nothing throws, and once the damage is met the file is built again.
    func testADatabaseCutShortIsAMissAndIsBuiltAgain() throws {
        let whole = try filledCache(300)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: whole.databasePath)[.size] as? Int)
        for length in [0, 50, 100, 8_191, 8_192, 20_000, size / 2, size - 8_192] {
            let cache = try filledCache(300)
            XCTAssertEqual(truncate(cache.databasePath, off_t(length)), 0)
            let store = try cache.store()
            let keys = (0..<300).map { key("9.0.\($0 / 256).\($0 % 256)") }
            for (key, found) in zip(keys, store.entries(for: keys)) {
                if let found { XCTAssertEqual(found.response.ip, key.address, "cut at \(length)") }
            }
            _ = store.database.info()
            store.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
            XCTAssertEqual(store.text(for: key("8.8.8.8")), #"{"ip":"8.8.8.8"}"#, "cut at \(length)")
            store.database.close()
            let reopened = try cache.store()
            XCTAssertEqual(reopened.text(for: key("8.8.8.8")), #"{"ip":"8.8.8.8"}"#, "cut at \(length)")
            XCTAssertEqual(try integrity(of: cache), "ok", "cut at \(length)")
        }
    }

    /// Damage that another process meets while this one has the database open: it builds the
    /// database again; this process goes on, without an error.
    func testDamageMetByAnotherProcessLeavesThisOneWorking() throws {
        let cache = try filledCache(50)
        let first = try cache.store()
        XCTAssertNotNil(first.entry(for: key("9.0.0.1")))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cache.databasePath))
        try handle.write(contentsOf: Data(repeating: 0x41, count: 100))
        try handle.close()
        let second = try cache.store()
        second.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        first.store(entry(#"{"ip":"8.8.4.4"}"#), for: key("8.8.4.4"))
        _ = first.entries(for: [key("9.0.0.1"), key("8.8.8.8")])
        XCTAssertEqual(second.text(for: key("8.8.8.8")), #"{"ip":"8.8.8.8"}"#)
        XCTAssertEqual(try integrity(of: cache), "ok")
    }

    /// Another program's database under the cache's name, or another version's, is no cache:
    /// it is built again as the cache.
    func testAnotherSchemaIsBuiltAgain() throws {
        for setup in [
            "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')",
            // The first schema (answers as the API sent them, no digest), and a later one.
            "PRAGMA application_id = \(CacheDatabase.applicationID); PRAGMA user_version = 1",
            "PRAGMA application_id = \(CacheDatabase.applicationID); PRAGMA user_version = \(CacheDatabase.schemaVersion + 1)",
        ] {
            let cache = try makeTestCache()
            try FileManager.default.createDirectory(
                atPath: cache.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            _ = FileManager.default.createFile(
                atPath: cache.databasePath, contents: nil, attributes: [.posixPermissions: 0o600])
            try SQLiteConnection(path: cache.databasePath, busyTimeout: 1_000).execute(setup)
            let store = try cache.store()
            store.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
            XCTAssertEqual(store.text(for: key("8.8.8.8")), #"{"ip":"8.8.8.8"}"#, setup)
        }
    }

    // MARK: The bound

    /// A clock that moves a millisecond each time it is read, from now.
    private final class TickingClock: @unchecked Sendable {
        // @unchecked: `ticks` is read and written only under `lock`.
        private let lock = NSLock()
        private var ticks = 0.0

        func now() -> Date {
            lock.lock()
            defer { lock.unlock() }
            ticks += 1
            return Date() + ticks / 1_000
        }
    }

    private func boundedStore(_ cache: TestCache, bound: Int, clock: TickingClock) throws -> SQLiteLookupStore {
        let database = try CacheDatabase.open(
            CacheConfiguration(directory: cache.directory, maximumEntries: bound, now: { clock.now() }))
        return SQLiteLookupStore(database: database, scope: TestCache.scope)
    }

    private func addresses(_ count: Int) -> [LookupCacheKey] {
        (0..<count).map { key("9.0.\($0 / 256).\($0 % 256)") }
    }

    func testPastTheBoundTheOldestGoFirst() throws {
        let cache = try makeTestCache()
        let store = try boundedStore(cache, bound: 10, clock: TickingClock())
        let keys = addresses(25)
        for key in keys { store.store(entry(#"{"ip":"\#(key.address)"}"#), for: key) }
        let kept = zip(keys, store.entries(for: keys)).filter { $0.1 != nil }.map(\.0)
        XCTAssertTrue((9...10).contains(kept.count), "\(kept.count)")
        XCTAssertEqual(kept, Array(keys.suffix(kept.count)), "the newest stay")
        XCTAssertEqual(store.database.info().entries, kept.count)
    }

    func testABulkWritePastTheBoundKeepsItsLastEntries() throws {
        let cache = try makeTestCache()
        let store = try boundedStore(cache, bound: 10, clock: TickingClock())
        let keys = addresses(100)
        store.store(keys.map { entry(#"{"ip":"\#($0.address)"}"#) }, for: keys)
        let kept = zip(keys, store.entries(for: keys)).filter { $0.1 != nil }.map(\.0)
        XCTAssertEqual(kept, Array(keys.suffix(9)), "90% of the bound, the last ones written")
    }

    /// Each process checks at its first write, and then every 16th part of the bound: so the
    /// cache never holds more than the bound and a 16th.
    func testEachProcessChecksTheBoundAtItsFirstWriteAndThenEverySixteenthOfIt() throws {
        let cache = try makeTestCache()
        let keys = addresses(600)
        let clock = TickingClock()
        let unbounded = try boundedStore(cache, bound: 1_000, clock: clock)
        unbounded.store(keys[..<300].map { entry(#"{"ip":"\#($0.address)"}"#) }, for: Array(keys[..<300]))
        XCTAssertEqual(unbounded.database.info().entries, 300)
        let bounded = try boundedStore(cache, bound: 160, clock: clock)
        bounded.store(entry(#"{"ip":"\#(keys[300].address)"}"#), for: keys[300])
        XCTAssertEqual(bounded.database.info().entries, 144, "down to 90% at the first write")
        for key in keys[301...] {
            bounded.store(entry(#"{"ip":"\#(key.address)"}"#), for: key)
            XCTAssertLessThanOrEqual(bounded.database.info().entries, 160 + 10)
        }
        XCTAssertNotNil(bounded.entry(for: keys.last!))
    }

    // MARK: info and clear

    /// Live: some lookup still reads it. A full answer or one without threat data serves for
    /// 24 hours; an answer of fields with `threat` for 15 minutes.
    func testInfoCountsLiveAndExpiredEntriesByWhatALookupStillReads() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        for index in 0..<30 {
            let address = "9.0.0.\(index)"
            let json = #"{"ip":"\#(address)","country_code":"US","threat":{"is_tor":false}}"#
            switch index % 3 {
            case 0: store.store(entry(json), for: key(address))
            case 1: store.store(entry(json), for: key(address, ["ip", "threat"]))
            default: store.store(entry(json), for: key(address, ["ip", "country_code"]))
            }
        }
        let table: [(minutes: Double, live: Int)] = [(1, 30), (20, 20), (23 * 60, 20), (25 * 60, 0), (-20, 20)]
        for row in table {
            let info = try cache.database(offset: row.minutes * 60).info()
            XCTAssertEqual(info.entries, 30, "after \(row.minutes) min")
            XCTAssertEqual(info.live, row.live, "after \(row.minutes) min")
            XCTAssertEqual(info.expired, 30 - row.live, "after \(row.minutes) min")
        }
    }

    /// The space on disk is what `du` reports of the folder (the database, its WAL and its
    /// shared memory); the bytes of the answers are the API's JSON.
    func testInfoCountsTheSpaceOnDiskAsDuDoesAndTheAnswersBytes() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        XCTAssertEqual(store.database.info().entries, 0)
        let keys = addresses(300)
        let entries = keys.map { entry(#"{"ip":"\#($0.address)","country_code":"US"}"#) }
        let before = Date()
        store.store(entries, for: keys)
        let info = store.database.info()
        let du = String(decoding: try ToolRun.output("du", ["-sk", cache.directory]), as: UTF8.self)
        let kibibytes = try XCTUnwrap(Int(du.prefix { $0.isNumber }), du)
        XCTAssertEqual((info.diskBytes + 1_023) / 1_024, kibibytes, du)
        XCTAssertEqual(info.entries, 300)
        XCTAssertEqual(info.answerBytes, entries.map { $0.json!.count }.reduce(0, +))
        XCTAssertGreaterThan(info.diskBytes, info.answerBytes)
        let oldest = try XCTUnwrap(info.oldest)
        XCTAssertEqual(oldest.timeIntervalSince1970, before.timeIntervalSince1970, accuracy: 5)
        XCTAssertEqual(info.newest, oldest, "one write")
    }

    func testClearRemovesEveryEntryOfEveryScopeAndNothingElse() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        let sandbox = SQLiteLookupStore(database: store.database, scope: .sandbox)
        let keys = addresses(2_000)
        store.store(
            keys.map { entry(#"{"ip":"\#($0.address)","pad":"\#(String(repeating: "x", count: 1_000))"}"#) }, for: keys)
        sandbox.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        let notes = cache.directory + "/notes.txt"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: notes))
        try FileManager.default.createDirectory(atPath: cache.directory + "/photos", withIntermediateDirectories: true)
        let full = store.database.info().diskBytes
        XCTAssertEqual(store.database.clear(), 2_001)
        XCTAssertEqual(store.database.info().entries, 0)
        XCTAssertNil(store.entry(for: keys[0]))
        XCTAssertNil(sandbox.entry(for: key("8.8.8.8")))
        XCTAssertLessThan(store.database.info().diskBytes, full / 4, "the space goes back to the file system")
        XCTAssertTrue(FileManager.default.fileExists(atPath: notes))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.directory + "/photos"))
        store.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        XCTAssertNotNil(store.entry(for: key("8.8.8.8")))
    }

    /// `cache info` and `cache clear` of a cache not created yet create nothing.
    func testACacheNotCreatedYetIsNotCreatedByInfoOrClear() throws {
        let cache = try makeTestCache()
        XCTAssertNil(try CacheDatabase.openExisting(cache.configuration()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.directory))
        try FileManager.default.createDirectory(
            atPath: cache.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertNil(try CacheDatabase.openExisting(cache.configuration()))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.directory), [])
        try cache.store().store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        XCTAssertEqual(try CacheDatabase.openExisting(cache.configuration())?.info().entries, 1)
    }

    // MARK: Where, and what fails

    func testTheLocationAndTheBoundComeFromTheEnvironment() throws {
        typealias Configuration = CacheConfiguration
        XCTAssertEqual(Configuration.location(environment: ["IPDATA_CACHE_DIR": "/x", "HOME": "/h"]), "/x")
        XCTAssertEqual(Configuration.location(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]), "/c/ipdata")
        XCTAssertEqual(
            Configuration.location(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]), "/h/.cache/ipdata")
        XCTAssertEqual(Configuration.location(environment: ["HOME": "/h"]), "/h/.cache/ipdata")
        XCTAssertNil(Configuration.location(environment: [:]))
        XCTAssertEqual(
            Configuration.location(environment: ["IPDATA_CACHE_DIR": "here"]),
            FileManager.default.currentDirectoryPath + "/here")
        XCTAssertEqual(try Configuration.maximumEntries(environment: [:]), 200_000)
        XCTAssertEqual(try Configuration.maximumEntries(environment: ["IPDATA_CACHE_MAX_ENTRIES": "5000"]), 5000)
        for bad in ["lots", "0", "-1", "100000001"] {
            XCTAssertThrowsError(try Configuration.maximumEntries(environment: ["IPDATA_CACHE_MAX_ENTRIES": bad])) {
                XCTAssertEqual(
                    "\($0)", "IPDATA_CACHE_MAX_ENTRIES must be a whole number from 1 to 100000000")
            }
        }
        let configuration = try XCTUnwrap(
            try CacheConfiguration(environment: ["HOME": "/h", "IPDATA_CACHE_MAX_ENTRIES": "7"]))
        XCTAssertEqual(configuration.directory, "/h/.cache/ipdata")
        XCTAssertEqual(configuration.maximumEntries, 7)
        XCTAssertEqual(configuration.timeToLive, 24 * 3600)
        XCTAssertEqual(configuration.threatTimeToLive, 15 * 60)
        XCTAssertNil(try CacheConfiguration(environment: [:]))
    }

    func testAFolderThatCannotBeCreatedIsRefusedInOneLine() throws {
        let file = try makeTemporaryDirectory().appendingPathComponent("a-file")
        try Data().write(to: file)
        XCTAssertThrowsError(try CacheDatabase.open(CacheConfiguration(directory: file.path + "/ipdata"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("not using the cache in \(file.path)/ipdata: cannot create"), text)
            XCTAssertFalse(text.contains("\n"))
        }
    }
}
