import Foundation
import IPData

/// Where the cache is, how many entries it keeps, and how long they answer lookups.
package struct CacheConfiguration: Sendable {
    /// The cache's folder: `$IPDATA_CACHE_DIR`, else `$XDG_CACHE_HOME/ipdata`, else
    /// `~/.cache/ipdata` (see `location(environment:)`).
    package var directory: String
    /// About how many entries the cache keeps, the oldest going first: 200,000 by default.
    ///
    /// Each process checks the bound at its first write and then every 16th part of it, and
    /// brings the cache down to 90% of it: so the cache may hold a 16th more between two checks.
    package var maximumEntries: Int
    /// How long an answer without threat data is served: 24 hours by default.
    package var timeToLive: TimeInterval
    /// How long an answer with threat data is served, which the API refreshes about every 15
    /// minutes (`LookupCacheKey.includesThreat`): 15 minutes by default.
    package var threatTimeToLive: TimeInterval
    /// The time now: a fixed clock in tests.
    package var now: @Sendable () -> Date

    /// The bound by default: 200,000 entries.
    package static let defaultMaximumEntries = 200_000
    /// How long an answer without threat data is served by default: 24 hours.
    package static let defaultTimeToLive: TimeInterval = 24 * 60 * 60
    /// How long an answer with threat data is served by default: 15 minutes.
    package static let defaultThreatTimeToLive: TimeInterval = 15 * 60

    /// A configuration; every parameter is described with its property.
    package init(
        directory: String, maximumEntries: Int = CacheConfiguration.defaultMaximumEntries,
        timeToLive: TimeInterval = CacheConfiguration.defaultTimeToLive,
        threatTimeToLive: TimeInterval = CacheConfiguration.defaultThreatTimeToLive,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory
        self.maximumEntries = max(1, maximumEntries)
        self.timeToLive = timeToLive
        self.threatTimeToLive = threatTimeToLive
        self.now = now
    }

    /// How old an answer may be to answer a lookup of `key`: `threatTimeToLive` when the lookup
    /// asks for threat data, else `timeToLive`. An answer from further in the future than that
    /// (a clock set back) answers nothing either.
    package func lifetime(of key: LookupCacheKey) -> TimeInterval {
        key.includesThreat ? threatTimeToLive : timeToLive
    }

    // MARK: From the environment

    /// The variable that names the cache's folder.
    package static let directoryVariable = "IPDATA_CACHE_DIR"
    /// The variable that sets the bound: a whole number from 1 to 100,000,000.
    package static let maximumEntriesVariable = "IPDATA_CACHE_MAX_ENTRIES"

    /// The configuration of `environment`'s location and bound; nil when there is no location.
    /// Throws `InvalidCacheSetting` when `IPDATA_CACHE_MAX_ENTRIES` is not a whole number.
    package init?(environment: [String: String]) throws(InvalidCacheSetting) {
        let bound = try Self.maximumEntries(environment: environment)
        guard let directory = Self.location(environment: environment) else { return nil }
        self.init(directory: directory, maximumEntries: bound)
    }

    /// The cache's folder for `environment` (a relative `IPDATA_CACHE_DIR` is taken from the
    /// current folder); nil when there is no home to put it in.
    package static func location(environment: [String: String]) -> String? {
        if let given = environment[directoryVariable], !given.isEmpty {
            guard !given.hasPrefix("/") else { return given }
            return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(given)
        }
        // The XDG base directory specification: a relative path is to be ignored.
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return (base as NSString).appendingPathComponent("ipdata")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return ((home as NSString).appendingPathComponent(".cache") as NSString).appendingPathComponent("ipdata")
    }

    /// `IPDATA_CACHE_MAX_ENTRIES`, or the default.
    package static func maximumEntries(environment: [String: String]) throws(InvalidCacheSetting) -> Int {
        guard let text = environment[maximumEntriesVariable], !text.isEmpty else { return defaultMaximumEntries }
        guard let value = Int(text), (1...100_000_000).contains(value) else {
            throw InvalidCacheSetting(message: "\(maximumEntriesVariable) must be a whole number from 1 to 100000000")
        }
        return value
    }
}

/// A cache setting of the environment that is not valid: a usage error of the caller's.
package struct InvalidCacheSetting: Error, Equatable, CustomStringConvertible {
    /// What is wrong and what is valid, in one line.
    package let message: String

    /// The message.
    package var description: String { message }
}
