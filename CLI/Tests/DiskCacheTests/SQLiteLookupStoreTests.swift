import Crypto
import Foundation
import IPData
import XCTest

@testable import DiskCache

/// The store as the client reads and fills it: keys and scopes, lifetimes on an injected clock,
/// a full answer's subsets, and what is kept and served (only answers, checked when read back).
final class SQLiteLookupStoreTests: XCTestCase {
    private let json = #"{"ip":"8.8.8.8","country_code":"US","threat":{"is_tor":false}}"#

    // MARK: Keys and scopes

    func testTheKeyIsTheCanonicalAddressTheFieldSetAndTheScope() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        store.store(entry(#"{"ip":"2001:db8::1"}"#), for: key("2001:DB8::1"))
        XCTAssertNotNil(store.entry(for: key("2001:db8:0:0:0:0:0:1")))
        store.store(entry(#"{"ip":"8.8.8.8","asn":{}}"#), for: key("8.8.8.8", ["ip", "asn"]))
        XCTAssertNotNil(store.entry(for: key("8.8.8.8", ["asn", "ip", "asn"])))
        XCTAssertNil(store.entry(for: key("8.8.8.8", ["ip"])), "another field set, and no full answer")
        XCTAssertNil(store.entry(for: key("8.8.8.8")))
        XCTAssertNil(store.entry(for: key("8.8.4.4", ["ip", "asn"])))
        let eu = CacheScope.api(baseURL: URL(string: "https://eu-api.ipdata.co")!, key: "secret-key-123")
        let otherKey = CacheScope.api(baseURL: URL(string: "https://api.ipdata.co")!, key: "other-key")
        let slash = CacheScope.api(baseURL: URL(string: "https://api.ipdata.co/")!, key: "secret-key-123")
        for (scope, found) in [(CacheScope.sandbox, false), (eu, false), (otherKey, false), (slash, true)] {
            let other = SQLiteLookupStore(database: store.database, scope: scope)
            XCTAssertEqual(other.entry(for: key("8.8.8.8", ["ip", "asn"])) != nil, found, "\(scope)")
        }
    }

    /// No key and no digest of it in any name or any byte of the folder: the database, its WAL
    /// (read while the store is open) and its shared memory, and again after the last close.
    func testTheKeyIsInNoNameAndNoFile() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        for index in 0..<50 { store.store(entry(#"{"ip":"9.0.0.\#(index)"}"#), for: key("9.0.0.\(index)")) }
        let secret = "secret-key-123"
        let digests = [Data(secret.utf8), Data(("ipdata API key\n" + secret).utf8)].map { Data(SHA256.hash(data: $0)) }
        let needles =
            [Data(secret.utf8)] + digests
            + digests.map { Data($0.map { String(format: "%02x", $0) }.joined().utf8) }
            + [Data(CacheScope.keyDigest(secret).utf8)]
        func check() throws {
            let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory)
            XCTAssertFalse(names.isEmpty)
            for name in names {
                XCTAssertFalse(name.contains("secret"), name)
                let content = try Data(contentsOf: URL(fileURLWithPath: cache.directory + "/" + name))
                for needle in needles { XCTAssertNil(content.range(of: needle), "\(name) holds \(needle)") }
            }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.databasePath + "-wal"))
        try check()
        store.database.close()
        try check()
        XCTAssertNotNil(try cache.store().entry(for: key("9.0.0.1")), "and the entries are there")
    }

    // MARK: Reading and writing

    /// An answer is given back as JSON lines print it: the API's tokens, byte for byte, without
    /// the whitespace between them (`CompactJSON`), so that a hit is printed as it is read.
    func testAnEntryGivesBackTheAPIsBytesCompactedWithModes0700And0600() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        XCTAssertNil(store.entry(for: key("8.8.8.8")))
        let pretty = try fixture("8.8.8.8.SYNTHETIC.ipdata-java-fixture-2026.json")
        store.store(entry(pretty), for: key("8.8.8.8"))
        let read = try XCTUnwrap(store.entry(for: key("8.8.8.8")))
        XCTAssertEqual(read.json, CompactJSON.compacted(pretty), "the API's tokens, compacted")
        XCTAssertLessThan(read.json?.count ?? 0, pretty.count)
        XCTAssertEqual(CompactJSON.compacted(read.json ?? Data()), read.json, "nothing left to compact")
        XCTAssertEqual(read.response, entry(pretty).response)
        XCTAssertEqual(mode(of: cache.directory), 0o700)
        for suffix in ["", "-wal", "-shm"] { XCTAssertEqual(mode(of: cache.databasePath + suffix), 0o600, suffix) }
    }

    func testASecondWriteReplacesTheEntry() throws {
        let store = try makeTestCache().store()
        store.store(entry(json), for: key("8.8.8.8"))
        let newer = #"{"ip":"8.8.8.8","country_code":"CA"}"#
        store.store(entry(newer), for: key("8.8.8.8"))
        XCTAssertEqual(store.text(for: key("8.8.8.8")), newer)
        XCTAssertEqual(store.database.info().entries, 1)
    }

    func testManyEntriesAreStoredAndReadInOneCallEachInTheirOrder() throws {
        let store = try makeTestCache().store()
        let keys = (0..<250).map { key("9.0.\($0 / 256).\($0 % 256)") }
        let entries = keys.map { entry(#"{"ip":"\#($0.address)"}"#) }
        store.store(Array(entries[..<200]), for: Array(keys[..<200]))
        let read = store.entries(for: keys + [key("8.8.8.8")])
        XCTAssertEqual(read.count, 251)
        XCTAssertEqual(read[..<200].map { $0?.response.ip }, keys[..<200].map(\.address))
        XCTAssertTrue(read[200...].allSatisfy { $0 == nil })
        XCTAssertEqual(store.hits, 200)
        XCTAssertEqual(store.entries(for: []).count, 0)
    }

    func testAnEntryWithoutTheAPIsBytesIsKeptAsItsModelsEncoding() throws {
        let store = try makeTestCache().store()
        let model = entry(json).response
        store.store(LookupCacheEntry(response: model, json: nil), for: key("8.8.8.8"))
        XCTAssertEqual(store.entry(for: key("8.8.8.8"))?.response, model)
    }

    // MARK: Lifetimes

    func testAnAnswerWithoutThreatDataLives24Hours() throws {
        let cache = try makeTestCache()
        let plain = key("8.8.8.8", ["ip", "country_code"])
        XCTAssertFalse(plain.includesThreat)
        try cache.store().store(entry(#"{"ip":"8.8.8.8","country_code":"US"}"#), for: plain)
        for (hours, fresh) in [(23.0, true), (25.0, false)] {
            XCTAssertEqual(try cache.store(offset: hours * 3600).entry(for: plain) != nil, fresh, "after \(hours) h")
        }
    }

    func testAnAnswerWithThreatDataLives15Minutes() throws {
        let cache = try makeTestCache()
        for threat in [key("8.8.8.8"), key("8.8.8.8", ["ip", "threat"])] {
            XCTAssertTrue(threat.includesThreat)
            try cache.store().store(entry(json), for: threat)
            for (minutes, fresh) in [(14.0, true), (16.0, false)] {
                XCTAssertEqual(
                    try cache.store(offset: minutes * 60).entry(for: threat) != nil, fresh, "after \(minutes) min")
            }
        }
    }

    /// The full answer's fields other than `threat` serve for 24 hours, its threat data for 15
    /// minutes: a lookup of some fields is answered from it as long as an entry of its own would.
    func testAFullAnswerAnswersAnySubsetOfItsFieldsForTheSubsetsLifetime() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        store.store(entry(json), for: key("8.8.8.8"))
        let plain = key("8.8.8.8", ["country_code", "ip"])
        let threat = key("8.8.8.8", ["threat", "ip"])
        let table: [(minutes: Double, plain: Bool, threat: Bool, all: Bool)] = [
            (0, true, true, true), (14, true, true, true), (16, true, false, false), (23 * 60, true, false, false),
            (25 * 60, false, false, false),
        ]
        for row in table {
            let later = try cache.store(offset: row.minutes * 60)
            XCTAssertEqual(
                later.text(for: plain), row.plain ? #"{"ip":"8.8.8.8","country_code":"US"}"# : nil,
                "after \(row.minutes) min")
            XCTAssertEqual(
                later.text(for: threat), row.threat ? #"{"ip":"8.8.8.8","threat":{"is_tor":false}}"# : nil,
                "after \(row.minutes) min")
            XCTAssertEqual(later.entry(for: key("8.8.8.8")) != nil, row.all, "after \(row.minutes) min")
        }
        XCTAssertEqual(store.entry(for: plain)?.response.countryCode, "US", "the model is the subset's")
        XCTAssertNil(store.entry(for: plain)?.response.threat)
        XCTAssertNil(store.entry(for: key("8.8.4.4", ["ip"])), "another address")
        let other = CacheScope.api(baseURL: URL(string: "https://eu-api.ipdata.co")!, key: "secret-key-123")
        XCTAssertNil(SQLiteLookupStore(database: store.database, scope: other).entry(for: key("8.8.8.8", ["ip"])))
        XCTAssertEqual(store.text(for: key("8.8.8.8", ["carrier"])), "{}", "a field the answer lacks: as the API")
    }

    func testASubsetsOwnEntryIsReadFirst() throws {
        let store = try makeTestCache().store()
        store.store(entry(json), for: key("8.8.8.8"))
        let own = #"{"ip":"8.8.8.8","country_code":"CA"}"#
        store.store(entry(own), for: key("8.8.8.8", ["ip", "country_code"]))
        XCTAssertEqual(store.text(for: key("8.8.8.8", ["ip", "country_code"])), own)
    }

    func testAnEntryFromFarInTheFutureIsAMiss() throws {
        let cache = try makeTestCache()
        try cache.store().store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8", ["ip"]))
        XCTAssertNil(try cache.store(offset: -2 * 86_400).entry(for: key("8.8.8.8", ["ip"])))
        XCTAssertNotNil(try cache.store(offset: -3600).entry(for: key("8.8.8.8", ["ip"])), "a clock a little behind")
    }

    // MARK: Only answers are kept

    /// An attacker's answer of 200 with `{"message": …}` (a quota notice, say) is not an answer.
    func testA200AnswerOfAMessageIsNotKept() throws {
        let store = try makeTestCache().store()
        for (address, body) in [
            ("8.8.8.8", #"{"message": "You have exceeded your quota."}"#),
            ("8.8.4.4", #"{"ip":"8.8.4.4","message":"Private address"}"#),
        ] {
            store.store(entry(body), for: key(address))
            XCTAssertNil(store.entry(for: key(address)), body)
        }
        XCTAssertEqual(store.database.info().entries, 0)
    }

    /// 64 KiB of JSON at most (`AnswerCheck.largestAnswer`): a larger answer is refused at write,
    /// and none of its bytes reach the disk.
    func testAnAnswerLargerThan64KiBIsNotKept() throws {
        let store = try makeTestCache().store()
        func answer(_ size: Int) -> String {
            let frame = #"{"ip":"8.8.8.8","pad":""}"#
            return #"{"ip":"8.8.8.8","pad":""# + String(repeating: "x", count: size - frame.utf8.count) + #""}"#
        }
        XCTAssertEqual(AnswerCheck.largestAnswer, 65_536)
        store.store(entry(answer(65_537)), for: key("8.8.8.8"))
        XCTAssertNil(store.entry(for: key("8.8.8.8")))
        XCTAssertEqual(store.database.info().answerBytes, 0)
        store.store(entry(answer(65_536)), for: key("8.8.8.8"))
        XCTAssertEqual(store.entry(for: key("8.8.8.8"))?.json?.count, 65_536)
        XCTAssertEqual(store.database.info().answerBytes, 65_536)
    }

    func testAnAnswerAboutAnotherAddressOrNoObjectIsNotKept() throws {
        let store = try makeTestCache().store()
        store.store(entry(#"{"ip":"1.1.1.1","country_code":"AU"}"#), for: key("8.8.8.8"))
        store.store(entry(#"{"country_code":"AU"}"#), for: key("8.8.8.8"))
        store.store(entry(#"{"country_code":"AU"}"#), for: key("8.8.8.8", ["ip", "country_code"]))
        let model = entry(#"{"ip":"8.8.8.8"}"#).response
        store.store(LookupCacheEntry(response: model, json: Data(#"["ip"]"#.utf8)), for: key("8.8.8.8"))
        XCTAssertEqual(store.database.info().entries, 0)
        // Without `ip` among the fields the API leaves it out: such an answer is kept.
        store.store(entry(#"{"country_code":"AU"}"#), for: key("1.1.1.1", ["country_code"]))
        XCTAssertEqual(store.text(for: key("1.1.1.1", ["country_code"])), #"{"country_code":"AU"}"#)
    }

    /// What is read back is checked before it is served, whoever wrote it: an entry that is no
    /// answer for its key is a miss, and is removed.
    func testWhatIsReadBackIsCheckedBeforeItIsServed() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        let rows: [(address: String, fields: String, json: String)] = [
            ("8.8.8.1", "", #"{"message":"You have exceeded your quota."}"#),
            ("8.8.8.2", "", #"{"ip":"6.6.6.6","country_code":"XX"}"#),
            ("8.8.8.3", "", #"{"country_code":"XX"}"#),
            ("8.8.8.4", "", "not json at all"),
            ("8.8.8.5", "", #"{"ip":"8.8.8.5","country_code":"XX""#),
            ("8.8.8.6", "", #"{"ip":"8.8.8.6"} {"ip":"8.8.8.6"}"#),
            ("8.8.8.7", "", #"{"ip":"8.8.8.7","pad":""# + String(repeating: "x", count: 70_000) + #""}"#),
            ("8.8.8.8", "ip", #"{"ip":"6.6.6.6"}"#),
        ]
        try plant(rows, in: cache)
        for row in rows {
            let fields = row.fields.isEmpty ? nil : row.fields.split(separator: ",").map(String.init)
            XCTAssertNil(store.entry(for: key(row.address, fields)), row.json)
        }
        // A full answer that is no answer serves no subset either.
        XCTAssertNil(store.entry(for: key("8.8.8.2", ["country_code"])))
        XCTAssertEqual(store.database.info().entries, 0, "each was removed")
        XCTAssertEqual(store.hits, 0)
    }

    /// A row the store wrote whose bytes changed afterwards (damage, or another writer), or that
    /// was moved to another address, no longer matches its digest: a miss, and removed.
    func testARowChangedAfterItWasWrittenIsAMiss() throws {
        let cache = try makeTestCache()
        let store = try cache.store()
        store.store(entry(#"{"ip":"8.8.8.8","country_code":"US"}"#), for: key("8.8.8.8"))
        store.store(entry(#"{"ip":"8.8.4.4","country_code":"US"}"#), for: key("8.8.4.4"))
        XCTAssertEqual(store.text(for: key("8.8.8.8")), #"{"ip":"8.8.8.8","country_code":"US"}"#)
        _ = try cache.database()
        let connection = try SQLiteConnection(path: cache.databasePath, busyTimeout: 1_000)
        try connection.execute(
            #"UPDATE answer SET json = CAST(replace(CAST(json AS TEXT), '"US"', '"XX"') AS BLOB) WHERE address = '8.8.8.8'"#
        )
        try connection.execute("UPDATE answer SET address = '9.9.9.9' WHERE address = '8.8.4.4'")
        XCTAssertNil(store.entry(for: key("8.8.8.8")), "changed bytes")
        XCTAssertNil(store.entry(for: key("9.9.9.9")), "another address")
        XCTAssertEqual(store.database.info().entries, 0, "each was removed")
    }

    /// Rows written behind the store's back, stored now, in the test's scope.
    private func plant(_ rows: [(address: String, fields: String, json: String)], in cache: TestCache) throws {
        _ = try cache.database()
        let connection = try SQLiteConnection(path: cache.databasePath, busyTimeout: 1_000)
        let insert = try connection.statement(
            "INSERT INTO answer (scope, address, fields, stored, json) VALUES (?1, ?2, ?3, ?4, ?5)")
        for row in rows {
            insert.bind(TestCache.scope.digest, at: 1)
            insert.bind(row.address, at: 2)
            insert.bind(row.fields, at: 3)
            insert.bind(CacheDatabase.milliseconds(Date()), at: 4)
            insert.bind(Data(row.json.utf8), at: 5)
            try insert.run()
        }
    }
}
