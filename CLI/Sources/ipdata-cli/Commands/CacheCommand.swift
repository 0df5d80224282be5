import ArgumentParser
import DiskCache
import Foundation

/// `ipdata cache info|clear`: what the disk cache of answers holds, and emptying it.
struct CacheCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "show what the cache of answers holds, or empty it",
        usage: "ipdata cache info | clear",
        discussion: HelpProse.flowed(
            """
            Show what the cache of answers holds (info), or empty it (clear).

            Lookups keep each successful answer on disk, so that a second run over the same
            addresses sends no request: `ipdata IP…`, bulk, enrich and summarize read it and fill
            it; --no-cache leaves it alone. A lookup without threat data is answered from an
            answer up to 24 hours old; one with threat data (all fields, or --fields with threat),
            which the API refreshes about every 15 minutes, only from one younger than 15 minutes.
            An answer of all fields also answers any --fields (those fields of it, on the same
            terms). Errors are never kept. Entries are kept apart by API (--sandbox, --eu,
            --base-url) and by key, and name no key.

              ipdata cache info
              ipdata cache clear

            The cache is in $IPDATA_CACHE_DIR, else $XDG_CACHE_HOME/ipdata, else ~/.cache/ipdata
            (mode 0700), in one SQLite database, answers.sqlite (mode 0600), that every ipdata
            process of the user shares; a folder or file that is not safely the user's is not used.
            It keeps about \(CacheConfiguration.defaultMaximumEntries) entries, the oldest going
            first: IPDATA_CACHE_MAX_ENTRIES sets another bound. An expired entry is no longer
            read; clear removes it with the rest.
            """))

    enum Action: String, CaseIterable {
        case info, clear
    }

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(
        help: ArgumentHelp("info or clear", valueName: "action"), completion: .list(Action.allCases.map(\.rawValue)))
    var actions: [String] = []

    /// The action asked for; a usage error unless it is one of them, alone.
    private func action() throws -> Action {
        let names = Action.allCases.map(\.rawValue).joined(separator: " | ")
        guard actions.count == 1, let action = Action(rawValue: actions[0]) else {
            throw UsageError("cache takes one action: ipdata cache \(names)")
        }
        return action
    }

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
        }
    }

    func run(environment: [String: String], console: Console) throws -> ExitStatus {
        let action = try action()
        let cache: CacheConfiguration
        do {
            guard let found = try CacheConfiguration(environment: environment) else {
                throw CommandError(.usage, "no cache folder: set IPDATA_CACHE_DIR, XDG_CACHE_HOME or HOME")
            }
            cache = found
        } catch let error as InvalidCacheSetting {
            throw UsageError(error.message)
        }
        let database: CacheDatabase?
        do {
            database = try CacheDatabase.openExisting(cache)
        } catch {
            throw CommandError(.usage, error.description)
        }
        defer { database?.close() }
        switch action {
        case .info:
            var info = database?.info() ?? CacheInfo()
            // The space at rest, once this connection's own files are gone (as `du` sees it after).
            database?.close()
            if let database { info.diskBytes = database.diskBytes() }
            console.printOutput(Self.text(of: info, configuration: cache))
        case .clear:
            let removed = database?.clear() ?? 0
            console.printOutput(
                "removed \(removed) entr\(removed == 1 ? "y" : "ies") from \(cache.directory)\n")
        }
        return .success
    }

    /// What `info` prints: one `name  value` line each.
    static func text(of info: CacheInfo, configuration cache: CacheConfiguration) -> String {
        let exists = FileManager.default.fileExists(atPath: cache.directory)
        var lines = [
            ("location", cache.directory + (exists ? "" : " (not created yet)")),
            ("entries", "\(info.entries) (\(info.live) live, \(info.expired) expired)"),
            (
                "size",
                "\(byteText(info.diskBytes)) on disk, as du counts it; \(shortByteText(info.answerBytes)) of answers"
            ),
        ]
        if let oldest = info.oldest, let newest = info.newest {
            lines.append(("oldest", timeText(oldest)))
            lines.append(("newest", timeText(newest)))
        }
        lines.append(("bound", "about \(cache.maximumEntries) entries (\(CacheConfiguration.maximumEntriesVariable))"))
        lines.append(
            (
                "lifetime",
                "\(durationText(cache.timeToLive)); \(durationText(cache.threatTimeToLive)) for a lookup with threat data"
            ))
        return lines.map { $0.0.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()
    }

    /// `1.9 MB (1949696 bytes)`.
    private static func byteText(_ bytes: Int) -> String {
        bytes < 1_000 ? "\(bytes) bytes" : shortByteText(bytes) + " (\(bytes) bytes)"
    }

    /// `1.9 MB`.
    private static func shortByteText(_ bytes: Int) -> String {
        if bytes < 1_000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1e3) }
        return String(format: "%.1f MB", Double(bytes) / 1e6)
    }

    private static func timeText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    private static func durationText(_ seconds: TimeInterval) -> String {
        seconds >= 3600 && seconds.truncatingRemainder(dividingBy: 3600) == 0
            ? "\(Int(seconds / 3600)) h" : "\(Int(seconds / 60)) min"
    }
}
