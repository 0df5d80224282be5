import Foundation
import IPData
import IPDataLibC

/// The answers of earlier runs, on disk, shared by every `ipdata` process of the user: one small
/// file per entry, in 256 folders by the first two digits of its name, so that a second run over
/// the same addresses sends no request.
///
/// An entry is the bytes the API sent for one address and one set of fields, under a name that is
/// the SHA-256 of everything that changes the answer (see `CacheEntryKey`). Its file holds
///
///     ipdata-cache 1\n<address>#<fields>\n<byte count>\n<the API's JSON>
///
/// and its modification time is when it was stored. It is written to a temporary file in the same
/// folder and renamed over the entry, so a reader sees the old entry or the new one, never a part:
/// two processes writing one entry both rename, the last one wins; a crash leaves at most a
/// temporary file, removed later. A file that is not a whole entry (cut short, another format,
/// another key) is a miss, and is removed.
///
/// A lookup is answered from an entry for `ttl` (24 hours), or for `threatTTL` (15 minutes) when it
/// asks for threat data (all fields, or `threat` among them), which the API refreshes about every
/// 15 minutes (`LookupCacheKey.includesThreat`). An entry of the address's full answer (all
/// fields) also answers a lookup of any set of top-level fields, with those members of it (see
/// `AnswerSubset`), on the same terms: so its fields other than `threat` serve for 24 hours, and
/// its threat data for 15 minutes. The cache holds about `maxEntries` entries: each folder at most
/// its 256th part; when a write finds its folder over that, the oldest entries of the folder go.
/// Files that vanish under it (another process evicting or clearing) are skipped.
///
/// The folder is created with mode 0700 and the files with 0600: they say what the user looked up.
final class DiskCache: Sendable {
    /// Where the cache is: `$IPDATA_CACHE_DIR`, else `$XDG_CACHE_HOME/ipdata`, else `~/.cache/ipdata`.
    let directory: String
    /// About how many entries it keeps (see the type's description).
    let maxEntries: Int
    /// How long an entry stays fresh, and how long one with threat data does.
    let ttl: TimeInterval
    let threatTTL: TimeInterval
    /// The time now (a fixed clock in tests).
    let now: @Sendable () -> Date

    static let defaultMaxEntries = 200_000
    static let defaultTTL: TimeInterval = 24 * 60 * 60
    static let defaultThreatTTL: TimeInterval = 15 * 60
    /// The number of folders entries are spread over.
    static let shardCount = 256
    /// The most bytes an entry's file may hold; a larger one is no entry of ours.
    static let largestEntry = 1 << 20
    static let magic = "ipdata-cache 1\n"
    /// A temporary file older than this is the leftover of a crash.
    static let staleTemporary: TimeInterval = 10 * 60

    private struct State {
        /// Writes of this process to each folder since it was last checked against the bound.
        var writes: [String: Int] = [:]
        var temporaryCount = 0
        /// Why the last write failed, once, for the caller to say.
        var writeProblem: String?
        var writeProblemTaken = false
    }

    private let state = Locked(State())

    init(
        directory: String, maxEntries: Int = DiskCache.defaultMaxEntries, ttl: TimeInterval = DiskCache.defaultTTL,
        threatTTL: TimeInterval = DiskCache.defaultThreatTTL, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory
        self.maxEntries = max(1, maxEntries)
        self.ttl = ttl
        self.threatTTL = threatTTL
        self.now = now
    }

    // MARK: Where

    static let directoryVariable = "IPDATA_CACHE_DIR"
    static let maxEntriesVariable = "IPDATA_CACHE_MAX_ENTRIES"

    /// The cache's folder for `environment` (a relative `IPDATA_CACHE_DIR` is taken from the
    /// current folder); nil when there is no home to put it in.
    static func location(environment: [String: String]) -> String? {
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

    /// `IPDATA_CACHE_MAX_ENTRIES`, or the default; a usage error when it is not a whole number.
    static func maxEntries(environment: [String: String]) throws -> Int {
        guard let text = environment[maxEntriesVariable], !text.isEmpty else { return defaultMaxEntries }
        guard let value = Int(text), (1...100_000_000).contains(value) else {
            throw UsageError("\(maxEntriesVariable) must be a whole number from 1 to 100000000")
        }
        return value
    }

    /// The cache of `environment`'s location and bound; nil without a location.
    static func standard(environment: [String: String]) throws -> DiskCache? {
        let bound = try maxEntries(environment: environment)
        return location(environment: environment).map { DiskCache(directory: $0, maxEntries: bound) }
    }

    private func folder(of name: String) -> String {
        directory + "/" + String(name.prefix(2))
    }

    private func path(of key: CacheEntryKey) -> String {
        folder(of: key.fileName) + "/" + key.fileName
    }

    /// How old an entry may be to answer a lookup of `key`: `threatTTL` when the lookup asks for
    /// threat data, else `ttl`.
    func lifetime(of key: CacheEntryKey) -> TimeInterval {
        key.lookup.includesThreat ? threatTTL : ttl
    }

    // MARK: Reading

    /// The API's JSON for a lookup of `key`: its own entry, when it is there, whole and fresh,
    /// else for a lookup of some fields, those members of the address's full answer, when that
    /// entry is (both as fresh as the lookup's `lifetime(of:)`).
    func entry(for key: CacheEntryKey) -> Data? {
        let lifetime = lifetime(of: key)
        if let json = storedEntry(for: key, lifetime: lifetime) { return json }
        guard let full = key.fullAnswer, let json = storedEntry(for: full, lifetime: lifetime) else { return nil }
        return AnswerSubset.members(of: json, named: Set(key.lookup.fields))
    }

    /// The JSON of `key`'s own entry, when it is there, whole, and younger than `lifetime`.
    private func storedEntry(for key: CacheEntryKey, lifetime: TimeInterval) -> Data? {
        let path = path(of: key)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let age = now().timeIntervalSince1970 - Self.modificationTime(status)
        // An entry from the future (a clock set back) is not trusted beyond its lifetime either.
        guard age < lifetime, age > -lifetime else { return nil }
        let size = Int(status.st_size)
        guard size > 0, size <= Self.largestEntry, let bytes = Self.readAll(descriptor, size: size),
            let json = Self.entryJSON(bytes, key: key.lookup.description)
        else {
            unlink(path)
            return nil
        }
        return json
    }

    /// The JSON of an entry's bytes, when they are a whole entry for `key`.
    static func entryJSON(_ bytes: [UInt8], key: String) -> Data? {
        let header = Array((magic + key + "\n").utf8)
        guard bytes.count > header.count, bytes[..<header.count].elementsEqual(header) else { return nil }
        var index = header.count
        var count = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit), count < largestEntry else { return nil }
            count = count * 10 + digit
            index += 1
        }
        index += 1
        // A JSON object, as the API sends one (a single lookup's ends with a line end).
        guard count > 0, index + count == bytes.count, bytes[index] == UInt8(ascii: "{"),
            bytes[index...].last(where: { !" \t\r\n".utf8.contains($0) }) == UInt8(ascii: "}")
        else { return nil }
        return Data(bytes[index...])
    }

    /// The bytes of an entry's file, for `key`.
    static func entryBytes(_ json: Data, key: String) -> Data {
        var bytes = Data((magic + key + "\n" + "\(json.count)\n").utf8)
        bytes.append(json)
        return bytes
    }

    private static func readAll(_ descriptor: Int32, size: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, size - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    private static func modificationTime(_ status: stat) -> TimeInterval {
        #if os(Linux)
        return TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9
        #else
        return TimeInterval(status.st_mtimespec.tv_sec) + TimeInterval(status.st_mtimespec.tv_nsec) / 1e9
        #endif
    }

    // MARK: Writing

    /// Keeps `json` for `key`: written whole to a temporary file, then renamed over the entry.
    /// Never throws: a cache that cannot be written is a cache that misses (see `takeWriteProblem()`).
    func store(_ json: Data, for key: CacheEntryKey) {
        let folder = folder(of: key.fileName)
        let serial = state.withLock { state -> Int in
            state.temporaryCount += 1
            return state.temporaryCount
        }
        let temporary = folder + "/.tmp-\(getpid())-\(serial)-\(UInt32.random(in: 0...UInt32.max))"
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == ENOENT {
            guard createFolders(folder) else { return }
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { return noteWriteProblem(errno) }
        let bytes = Self.entryBytes(json, key: key.lookup.description)
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        let problem = errno
        close(descriptor)
        guard written, rename(temporary, path(of: key)) == 0 else {
            let renameProblem = errno
            unlink(temporary)
            return noteWriteProblem(written ? renameProblem : problem)
        }
        keepWithinBound(folder: folder)
    }

    /// Creates the cache's folder (mode 0700, as its parents when missing) and `folder` in it.
    private func createFolders(_ folder: String) -> Bool {
        for path in [directory, folder] {
            var parent = ""
            for component in path.split(separator: "/", omittingEmptySubsequences: true) {
                parent += "/" + component
                if mkdir(parent, 0o700) != 0, errno != EEXIST { break }
            }
        }
        var status = stat()
        guard stat(folder, &status) == 0 else {
            noteWriteProblem(errno)
            return false
        }
        return true
    }

    private func noteWriteProblem(_ code: Int32) {
        let reason = String(cString: strerror(code))
        state.withLock { state in
            if state.writeProblem == nil { state.writeProblem = reason }
        }
    }

    /// Why writing failed, the first time it is asked after a failure; then nil.
    func takeWriteProblem() -> String? {
        state.withLock { state in
            guard let problem = state.writeProblem, !state.writeProblemTaken else { return nil }
            state.writeProblemTaken = true
            return problem
        }
    }

    // MARK: The bound

    /// The most entries one folder keeps.
    var entriesPerFolder: Int {
        (maxEntries + Self.shardCount - 1) / Self.shardCount
    }

    /// Checks `folder` against its share of the bound at this process's first write to it, and
    /// again every quarter of that share of writes.
    private func keepWithinBound(folder: String) {
        let share = entriesPerFolder
        let checks = state.withLock { state -> Bool in
            let writes = state.writes[folder, default: 0] + 1
            state.writes[folder] = writes
            return writes == 1 || writes % max(1, share / 4) == 0
        }
        if checks { evict(folder: folder) }
    }

    /// Removes the oldest entries of `folder` past its share of the bound (down to 90% of it), and
    /// temporary files a crash left. Files may vanish meanwhile (another process): they are skipped.
    func evict(folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let share = entriesPerFolder
        let now = now().timeIntervalSince1970
        var entries: [(name: String, time: TimeInterval)] = []
        var entryCount = 0
        for name in names {
            if name.hasPrefix(".tmp-") {
                var status = stat()
                if stat(folder + "/" + name, &status) == 0, now - Self.modificationTime(status) > Self.staleTemporary {
                    unlink(folder + "/" + name)
                }
            } else if Self.isEntryName(name) {
                entryCount += 1
            }
        }
        guard entryCount > share else { return }
        for name in names where Self.isEntryName(name) {
            var status = stat()
            guard stat(folder + "/" + name, &status) == 0 else { continue }
            entries.append((name, Self.modificationTime(status)))
        }
        let keep = max(1, share * 9 / 10)
        guard entries.count > keep else { return }
        entries.sort { $0.time < $1.time }
        for entry in entries.prefix(entries.count - keep) { unlink(folder + "/" + entry.name) }
    }

    /// Whether `name` is an entry's: 64 lower-case hexadecimal digits.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func isFolderName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    // MARK: info and clear

    /// What `ipdata cache info` shows.
    struct Info: Equatable {
        /// The entries, and how many of them answer some lookup now (by the lifetimes of the
        /// type's description) and how many none.
        var entries = 0
        var live = 0
        var expired = 0
        /// The bytes of the entries' files.
        var bytes = 0
        /// The space the cache takes on disk, as `du` counts it: the blocks allocated to its
        /// folders and to every file in them (`st_blocks` × 512), temporary files included.
        var diskBytes = 0
        var oldest: Date?
        var newest: Date?
    }

    /// Counts what the cache holds: its entries, live and expired (which a lookup no longer
    /// reads), their bytes and the space on disk, the oldest and newest. Reads the start of
    /// each entry's file, which names its fields.
    func info() -> Info {
        var info = Info()
        let now = now().timeIntervalSince1970
        var status = stat()
        if lstat(directory, &status) == 0 { info.diskBytes += Self.allocatedBytes(status) }
        for folder in folders() {
            if lstat(folder, &status) == 0 { info.diskBytes += Self.allocatedBytes(status) }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names {
                let path = folder + "/" + name
                guard lstat(path, &status) == 0 else { continue }
                info.diskBytes += Self.allocatedBytes(status)
                guard Self.isEntryName(name), (status.st_mode & S_IFMT) == S_IFREG else { continue }
                let time = Self.modificationTime(status)
                info.entries += 1
                info.bytes += Int(status.st_size)
                // As `entry(for:)` reads it: live while some lookup would still take it.
                let lifetime = longestLifetime(ofEntryAt: path)
                if let lifetime, now - time < lifetime, now - time > -lifetime {
                    info.live += 1
                } else {
                    info.expired += 1
                }
                let date = Date(timeIntervalSince1970: time)
                if info.oldest.map({ date < $0 }) ?? true { info.oldest = date }
                if info.newest.map({ date > $0 }) ?? true { info.newest = date }
            }
        }
        return info
    }

    /// How long the entry at `path` answers some lookup: `threatTTL` when it is the answer of
    /// fields that name `threat` (only that lookup reads it), else `ttl` (a full answer serves
    /// lookups without threat data that long). Nil for a file that is no entry.
    private func longestLifetime(ofEntryAt path: String) -> TimeInterval? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // The magic line and `<address>#<fields>`: an address and the API's field names.
        var head = [UInt8](repeating: 0, count: 4096)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let magic = Array(Self.magic.utf8)
        guard count > magic.count, head[..<magic.count].elementsEqual(magic),
            let end = head[magic.count..<count].firstIndex(of: UInt8(ascii: "\n")),
            let hash = head[magic.count..<end].firstIndex(of: UInt8(ascii: "#"))
        else { return nil }
        let fields = head[(hash + 1)..<end].split(separator: UInt8(ascii: ","))
        return fields.contains(where: { $0.elementsEqual("threat".utf8) }) ? threatTTL : ttl
    }

    /// The bytes allocated to a file, as `du` counts them.
    private static func allocatedBytes(_ status: stat) -> Int {
        Int(status.st_blocks) * 512
    }

    /// Removes every entry and temporary file, and the folders left empty; only names the cache
    /// makes, so a cache folder set to a folder with other files in it loses none of them.
    /// Returns how many entries went.
    @discardableResult
    func clear() -> Int {
        var removed = 0
        for folder in folders() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where Self.isEntryName(name) || name.hasPrefix(".tmp-") {
                if unlink(folder + "/" + name) == 0, !name.hasPrefix(".tmp-") { removed += 1 }
            }
            rmdir(folder)
        }
        return removed
    }

    /// The paths of the cache's folders that exist.
    private func folders() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter(Self.isFolderName).sorted().map { directory + "/" + $0 }
    }
}

/// What an entry is kept under: the lookup (the address in canonical form and the requested
/// fields) and the scope of the answers (which API, which key), as the SHA-256 of both. The
/// scope's key part is itself a digest, so neither the key nor its digest is in any file or name.
struct CacheEntryKey: Sendable, Equatable {
    let lookup: LookupCacheKey
    let scope: CacheScope
    /// The entry's file name: 64 hexadecimal digits.
    let fileName: String

    init(lookup: LookupCacheKey, scope: CacheScope) {
        self.lookup = lookup
        self.scope = scope
        self.fileName = SHA256.hex("ipdata-cache 1\n" + scope.text + "\n" + lookup.description)
    }

    /// The key of the same address's full answer (all fields), in the same scope; nil for a key
    /// of all fields.
    var fullAnswer: CacheEntryKey? {
        guard !lookup.fields.isEmpty, let all = LookupCacheKey(address: lookup.address, fields: nil) else { return nil }
        return CacheEntryKey(lookup: all, scope: scope)
    }
}

/// Whose answers an entry holds: the sandbox's sample data, or one API (base URL) for one key.
struct CacheScope: Sendable, Equatable {
    let text: String

    /// The sandbox's sample answers, never served to a run against an API.
    static let sandbox = CacheScope(text: "sandbox")

    /// Answers of the API at `baseURL` for `key` (plans differ in what they answer).
    static func api(baseURL: URL, key: String) -> CacheScope {
        var url = baseURL.absoluteString
        while url.hasSuffix("/") { url.removeLast() }
        return CacheScope(text: "api " + url + " " + SHA256.hex("ipdata API key\n" + key))
    }

    private init(text: String) {
        self.text = text
    }
}
