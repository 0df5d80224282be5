import Foundation
import IPData
import XCTest

@testable import DiskCache

/// A cache in a new folder of its own, opened as often as a test needs: each opening is another
/// connection, with a clock of its own.
struct TestCache {
    /// The cache's folder (`…/ipdata`, not created until a database is opened).
    let directory: String

    static let scope = CacheScope.api(baseURL: URL(string: "https://api.ipdata.co")!, key: "secret-key-123")

    /// A database of the folder whose clock runs `offset` seconds ahead of the real one.
    func database(
        offset: TimeInterval = 0, maximumEntries: Int = CacheConfiguration.defaultMaximumEntries
    ) throws -> CacheDatabase {
        try CacheDatabase.open(configuration(offset: offset, maximumEntries: maximumEntries))
    }

    func configuration(
        offset: TimeInterval = 0, maximumEntries: Int = CacheConfiguration.defaultMaximumEntries
    ) -> CacheConfiguration {
        CacheConfiguration(directory: directory, maximumEntries: maximumEntries, now: { Date() + offset })
    }

    /// A store of `scope` on a new connection whose clock runs `offset` seconds ahead.
    func store(scope: CacheScope = TestCache.scope, offset: TimeInterval = 0) throws -> SQLiteLookupStore {
        SQLiteLookupStore(database: try database(offset: offset), scope: scope)
    }

    var databasePath: String { directory + "/answers.sqlite" }
}

extension XCTestCase {
    func makeTestCache() throws -> TestCache {
        TestCache(directory: try makeTemporaryDirectory().appendingPathComponent("ipdata").path)
    }
}

/// The key of a lookup of `address` for `fields` (nil for all).
func key(_ address: String, _ fields: [String]? = nil) -> LookupCacheKey {
    LookupCacheKey(address: address, fields: fields)!
}

/// An entry of `json`, with its model as the client decodes it.
func entry(_ json: Data) -> LookupCacheEntry {
    LookupCacheEntry(response: try! JSONDecoder().decode(IPResponse.self, from: json), json: json)
}

func entry(_ json: String) -> LookupCacheEntry {
    entry(Data(json.utf8))
}

extension SQLiteLookupStore {
    /// The API's JSON of the entry for `key`, as text; nil for a miss.
    func text(for key: LookupCacheKey) -> String? {
        entry(for: key).map { String(decoding: $0.json ?? Data(), as: UTF8.self) }
    }
}
