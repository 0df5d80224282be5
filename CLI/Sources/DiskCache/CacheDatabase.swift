import Foundation
import IPData

/// The cache's database: one SQLite file per user, `answers.sqlite` in the cache's folder, that
/// every `ipdata` process of the user shares. It keeps the API's JSON of each answer, compacted
/// (`CompactJSON`), under its scope, its address and its fields, with the time it was stored and
/// its digest (`AnswerDigest`); `SQLiteLookupStore` reads and fills it for one scope, `info()`
/// and `clear()` see all of them.
///
/// - Trust: it opens only a folder and files that are the user's own and that no one else may
///   write to, none of them a symbolic link, and only regular files (see `CacheFolder`). When
///   they are not, `open(_:)` throws a `CacheRefusal`, and the caller runs without the cache.
/// - Sharing: the database is in WAL mode, so that readers never wait for a writer, and a writer
///   waits up to 2 s for another's lock. One bulk answer's entries are written in one
///   transaction. What cannot be done in time is a miss, or an answer not kept.
/// - Damage: a file that is not a sound database (cut short, garbage, another schema) is a miss;
///   it is removed and built again, empty, at once. No operation throws: a failure other than
///   damage is a miss too, and `takeProblem()` says once why.
/// - The bound: about `maximumEntries` entries; the oldest go first (see `CacheConfiguration`).
///
/// Thread-safe: every use of the connection is under one lock, one operation at a time.
package final class CacheDatabase: @unchecked Sendable {
    // @unchecked: `connection`, the counters and `selects` are read and written only under `lock`.

    /// Where it is, its bound and its lifetimes.
    package let configuration: CacheConfiguration
    let folder: CacheFolder
    private let lock = NSLock()
    /// Nil once closed, or once a damaged file could not be built again: every operation misses.
    private var connection: SQLiteConnection?
    /// Writes until this connection checks the bound again; 0 at its first write.
    private var writesUntilBoundCheck = 0
    private var problem: String?
    private var problemTaken = false
    /// The statements of `storedAnswers`, by the number of addresses and whether the keys name
    /// fields: each is built once.
    private var selects: [Int: String] = [:]

    /// How long an operation waits for another connection's lock: 2 s.
    static let busyTimeout: Int32 = 2_000
    /// The database's page: 8 KiB. A page of the table holds four or five answers of 1.5–2 KB,
    /// where a 4 KiB page holds two and leaves up to a quarter of itself empty (BENCHMARKS.md).
    static let pageSize = 8_192
    /// `PRAGMA application_id`: "IPDC". With `schemaVersion`, what tells our database from others.
    static let applicationID: Int64 = 0x4950_4443
    /// `PRAGMA user_version`: the schema's version. 2: answers compacted, with their digest.
    static let schemaVersion: Int64 = 2

    /// The table of answers: the scope's digest, the canonical address, the fields (sorted,
    /// comma-separated, empty for all), the time stored (milliseconds since 1970), the API's
    /// JSON (compacted) and the digest of the JSON and its key (`AnswerDigest`), which a row not
    /// written by the cache lacks. Its own rowid, so that a replaced entry is new
    /// (`INSERT OR REPLACE`).
    static let schema = """
        CREATE TABLE answer (
            scope BLOB NOT NULL,
            address TEXT NOT NULL,
            fields TEXT NOT NULL,
            stored INTEGER NOT NULL,
            json BLOB NOT NULL,
            digest INTEGER
        );
        CREATE UNIQUE INDEX answer_key ON answer (scope, address, fields);
        CREATE INDEX answer_age ON answer (stored);
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(schemaVersion);
        """

    private init(configuration: CacheConfiguration, folder: CacheFolder) {
        self.configuration = configuration
        self.folder = folder
    }

    /// The database of `configuration`'s folder, which is created (mode 0700) when missing, as
    /// is the database (mode 0600). Throws a `CacheRefusal` when the folder or a file is not
    /// safely the user's, or when the database cannot be opened at all.
    package static func open(_ configuration: CacheConfiguration) throws(CacheRefusal) -> CacheDatabase {
        guard let folder = try CacheFolder.checked(configuration.directory, creating: true) else {
            throw CacheRefusal(folder: configuration.directory, reason: "cannot create it")
        }
        let database = CacheDatabase(configuration: configuration, folder: folder)
        try database.connect()
        return database
    }

    /// The database of `configuration`'s folder when there is one; nil, and nothing created,
    /// when there is no folder or no database in it (what `cache info` and `cache clear` need).
    package static func openExisting(_ configuration: CacheConfiguration) throws(CacheRefusal) -> CacheDatabase? {
        guard let folder = try CacheFolder.checked(configuration.directory, creating: false),
            try folder.checkFiles()
        else { return nil }
        let database = CacheDatabase(configuration: configuration, folder: folder)
        try database.connect()
        return database
    }

    /// Opens the connection, creating the file first when it is missing, and building it again
    /// when it is damaged.
    private func connect() throws(CacheRefusal) {
        if try !folder.checkFiles() { try folder.createDatabaseFile() }
        do throws(SQLiteError) {
            connection = try Self.connection(at: folder.databasePath)
        } catch let error where error.isDamage {
            try folder.removeDatabaseFiles()
            try folder.createDatabaseFile()
            do throws(SQLiteError) {
                connection = try Self.connection(at: folder.databasePath)
            } catch {
                throw folder.refusal("cannot build the database (\(error))")
            }
        } catch {
            throw folder.refusal("cannot open the database (\(error))")
        }
    }

    /// A connection to the database at `path`, in WAL mode, with the schema: created in an empty
    /// file; a file with another schema or of another program throws as damage.
    private static func connection(at path: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        // No function of the schema runs with side effects; the page size counts in a new file only.
        try connection.execute("PRAGMA trusted_schema = OFF; PRAGMA page_size = \(pageSize)")
        guard try connection.text("PRAGMA journal_mode = WAL") == "wal" else {
            throw SQLiteError.notOurDatabase("the database cannot be put in WAL mode")
        }
        // A cache may lose its last transactions to a power cut, never its consistency.
        try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 8388608")
        if try isOurs(connection) { return connection }
        try connection.transaction(writing: true) { () throws(SQLiteError) in
            // Another process may have built it meanwhile.
            if try isOurs(connection) { return }
            guard try connection.integer("SELECT count(*) FROM sqlite_master") == 0,
                try connection.integer("PRAGMA application_id") == 0
            else { throw SQLiteError.notOurDatabase("another program's database, or another version's") }
            try connection.execute(schema)
        }
        return connection
    }

    private static func isOurs(_ connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        let application = try connection.integer("PRAGMA application_id")
        let version = try connection.integer("PRAGMA user_version")
        return application == applicationID && version == schemaVersion
    }

    /// Runs `body` on the connection, under the lock; nil when it failed or the database is
    /// unavailable. A damaged database is built again; another failure is kept for `takeProblem()`.
    private func withConnection<Value>(
        _ body: (SQLiteConnection) throws(SQLiteError) -> Value
    ) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let connection else { return nil }
        do throws(SQLiteError) {
            return try body(connection)
        } catch let error where error.isDamage {
            rebuild()
        } catch {
            note(error.description)
        }
        return nil
    }

    /// Removes the damaged database and builds it again, empty; on failure, the database stays
    /// unavailable for the rest of the process. Under the lock.
    private func rebuild() {
        connection = nil
        writesUntilBoundCheck = 0
        do throws(CacheRefusal) {
            try folder.removeDatabaseFiles()
            try folder.createDatabaseFile()
        } catch {
            return note(error.reason)
        }
        do throws(SQLiteError) {
            connection = try Self.connection(at: folder.databasePath)
        } catch {
            note("cannot build the database again (\(error))")
        }
    }

    private func note(_ reason: String) {
        if problem == nil { problem = reason }
    }

    /// Why an operation failed (the disk is full, another process held its lock too long), the
    /// first time it is asked after a failure; then nil.
    package func takeProblem() -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard let problem, !problemTaken else { return nil }
        problemTaken = true
        return problem
    }

    /// Closes the connection: every later operation misses. SQLite folds the WAL into the
    /// database when the last connection to it closes.
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        connection = nil
    }

    // MARK: Rows

    /// An entry as the table holds it.
    struct StoredAnswer {
        let rowID: Int64
        /// When it was stored, in milliseconds since 1970.
        let stored: Int64
        let json: Data
        /// Whether the row's digest is that of its JSON and its key (`AnswerDigest`): the cache
        /// wrote it, after checking it was an answer, and it is as it was written.
        let isIntact: Bool
    }

    /// What the table holds for one key: its own entry, and for a key of some fields, the
    /// address's full answer (all fields), which may answer it too.
    struct StoredAnswers {
        var own: StoredAnswer?
        var full: StoredAnswer?
    }

    /// The most addresses one statement of `storedAnswers` reads.
    static let addressesPerRead = 100

    /// For each of `keys`, the entries of `scope` for its address with its fields, or with all
    /// fields. Read in one transaction, so from one state of the database, up to
    /// `addressesPerRead` addresses a statement; each row names the key it is for by its
    /// position, so that no address is read back.
    func storedAnswers(scope: CacheScope, keys: [LookupCacheKey]) -> [StoredAnswers] {
        let found = withConnection { connection throws(SQLiteError) -> [StoredAnswers] in
            var rows = [StoredAnswers](repeating: StoredAnswers(), count: keys.count)
            // The keys of one field set are read together; a lookup stream's keys share one.
            var positions: [String: [Int]] = [:]
            let first = keys[0].fields
            if keys.allSatisfy({ $0.fields == first }) {
                positions[first.joined(separator: ",")] = Array(keys.indices)
            } else {
                for (position, key) in keys.enumerated() {
                    positions[key.fields.joined(separator: ","), default: []].append(position)
                }
            }
            func read(fields: String, positions: ArraySlice<Int>) throws(SQLiteError) {
                let select = try connection.statement(select(count: positions.count, namesFields: !fields.isEmpty))
                defer { select.reset() }
                select.bind(scope.digest, at: 1)
                select.bind(fields, at: 2)
                for (index, position) in positions.enumerated() {
                    select.bind(keys[position].address, at: Int32(index + 3))
                }
                while try select.step() {
                    let place = positions[positions.startIndex + Int(select.integer(at: 0))]
                    let isFull = !fields.isEmpty && select.integer(at: 1) != 0
                    let json = select.data(at: 4)
                    let digest = select.isNull(at: 5) ? nil : select.integer(at: 5)
                    let answer = StoredAnswer(
                        rowID: select.integer(at: 2), stored: select.integer(at: 3), json: json,
                        isIntact: digest
                            == AnswerDigest.digest(
                                of: json, scope: scope.digest, address: keys[place].address,
                                fields: isFull ? "" : fields))
                    if isFull { rows[place].full = answer } else { rows[place].own = answer }
                }
            }
            func readAll() throws(SQLiteError) {
                for (fields, all) in positions {
                    var start = all.startIndex
                    while start < all.endIndex {
                        let end = min(start + Self.addressesPerRead, all.endIndex)
                        try read(fields: fields, positions: all[start..<end])
                        start = end
                    }
                }
            }
            if keys.count <= Self.addressesPerRead, positions.count == 1 {
                try readAll()
            } else {
                try connection.transaction(writing: false) { () throws(SQLiteError) in try readAll() }
            }
            return rows
        }
        return found ?? Array(repeating: StoredAnswers(), count: keys.count)
    }

    /// The statement that reads `count` addresses' entries (parameters: the scope ?1, the fields
    /// ?2, the addresses from ?3), each row led by its address's position among them and whether
    /// it is the full answer; with `namesFields`, the full answers too. Under the lock.
    private func select(count: Int, namesFields: Bool) -> String {
        let key = count * 2 + (namesFields ? 1 : 0)
        if let kept = selects[key] { return kept }
        let wanted = (0..<count).map { "(\($0), ?\($0 + 3))" }.joined(separator: ",")
        let sql = """
            WITH wanted(position, address) AS (VALUES \(wanted))
            SELECT wanted.position, answer.fields = '', answer.rowid, answer.stored, answer.json, answer.digest
            FROM wanted JOIN answer ON answer.scope = ?1 AND answer.address = wanted.address
                AND answer.fields \(namesFields ? "IN (?2, '')" : "= ?2")
            """
        selects[key] = sql
        return sql
    }

    /// Keeps each JSON for its key in `scope`, replacing what was there, stored now, with its
    /// digest, in one transaction; the caller checked that each is an answer (`AnswerJSON`,
    /// `AnswerCheck`). Then checks the bound, when it is time to.
    func write(scope: CacheScope, answers: [(key: LookupCacheKey, json: Data)]) {
        guard !answers.isEmpty else { return }
        let stored = Self.milliseconds(configuration.now())
        _ = withConnection { connection throws(SQLiteError) in
            try connection.transaction(writing: true) { () throws(SQLiteError) in
                let insert = try connection.statement(
                    """
                    INSERT OR REPLACE INTO answer (scope, address, fields, stored, json, digest)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                    """)
                for (key, json) in answers {
                    let fields = key.fields.joined(separator: ",")
                    insert.bind(scope.digest, at: 1)
                    insert.bind(key.address, at: 2)
                    insert.bind(fields, at: 3)
                    insert.bind(stored, at: 4)
                    insert.bind(json, at: 5)
                    insert.bind(
                        AnswerDigest.digest(of: json, scope: scope.digest, address: key.address, fields: fields), at: 6)
                    try insert.run()
                }
                try keepWithinBound(connection, written: answers.count)
            }
        }
    }

    /// At this connection's first write, and then every 16th part of the bound in writes: when
    /// the table holds more than `maximumEntries`, removes the oldest down to 90% of it. In the
    /// writing transaction, so that two processes never both evict.
    private func keepWithinBound(_ connection: SQLiteConnection, written: Int) throws(SQLiteError) {
        writesUntilBoundCheck -= written
        guard writesUntilBoundCheck <= 0 else { return }
        let bound = configuration.maximumEntries
        writesUntilBoundCheck = max(1, bound / 16)
        let count = try connection.integer("SELECT count(*) FROM answer") ?? 0
        guard count > bound else { return }
        let evict = try connection.statement(
            "DELETE FROM answer WHERE rowid IN (SELECT rowid FROM answer ORDER BY stored, rowid LIMIT ?1)")
        evict.bind(count - Int64(max(1, bound * 9 / 10)), at: 1)
        try evict.run()
    }

    /// Removes the entries that were read but are no answer (see `AnswerCheck`), unless another
    /// process replaced them meanwhile.
    func remove(_ answers: [StoredAnswer]) {
        guard !answers.isEmpty else { return }
        _ = withConnection { connection throws(SQLiteError) in
            try connection.transaction(writing: true) { () throws(SQLiteError) in
                let delete = try connection.statement("DELETE FROM answer WHERE rowid = ?1 AND stored = ?2")
                for answer in answers {
                    delete.bind(answer.rowID, at: 1)
                    delete.bind(answer.stored, at: 2)
                    try delete.run()
                }
            }
        }
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }

    // MARK: info and clear

    /// What the cache holds: its entries, live and expired (by the lifetimes of
    /// `configuration`), their bytes, the space on disk, the oldest and the newest. Reads every
    /// entry's row.
    package func info() -> CacheInfo {
        var info = CacheInfo()
        let now = Self.milliseconds(configuration.now())
        let plain = Int64(configuration.timeToLive * 1_000)
        let threat = Int64(configuration.threatTimeToLive * 1_000)
        _ = withConnection { connection throws(SQLiteError) in
            // An entry of fields that name threat lives `threat`; any other `plain` (a full
            // answer serves its other fields that long). One from the future neither.
            let count = try connection.statement(
                """
                SELECT count(*),
                    coalesce(sum(CASE WHEN instr(',' || fields || ',', ',threat,') > 0
                        THEN stored > ?1 - ?3 AND stored < ?1 + ?3
                        ELSE stored > ?1 - ?2 AND stored < ?1 + ?2 END), 0),
                    coalesce(sum(length(json)), 0), min(stored), max(stored)
                FROM answer
                """)
            defer { count.reset() }
            count.bind(now, at: 1)
            count.bind(plain, at: 2)
            count.bind(threat, at: 3)
            guard try count.step() else { return }
            info.entries = Int(count.integer(at: 0))
            info.live = Int(count.integer(at: 1))
            info.expired = info.entries - info.live
            info.answerBytes = Int(count.integer(at: 2))
            if !count.isNull(at: 3) {
                info.oldest = Date(timeIntervalSince1970: TimeInterval(count.integer(at: 3)) / 1_000)
                info.newest = Date(timeIntervalSince1970: TimeInterval(count.integer(at: 4)) / 1_000)
            }
        }
        info.diskBytes = folder.diskBytes()
        return info
    }

    /// The space the cache's folder and files take on disk, as `du` counts it: after `close()`,
    /// what they take at rest (SQLite removes its `-shm` and `-wal` files with the last
    /// connection).
    package func diskBytes() -> Int {
        folder.diskBytes()
    }

    /// Removes every entry, of every scope, and gives the space back to the file system (when no
    /// other process is reading the database at that moment). Returns how many entries went.
    @discardableResult
    package func clear() -> Int {
        let removed = withConnection { connection throws(SQLiteError) -> Int in
            let removed = try connection.transaction(writing: true) { () throws(SQLiteError) -> Int in
                try connection.execute("DELETE FROM answer")
                return connection.changes
            }
            try? connection.execute("VACUUM")
            try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return removed
        }
        return removed ?? 0
    }
}
