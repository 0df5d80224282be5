import Foundation

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// One connection to a SQLite database file, with the statements prepared on it, kept for reuse.
///
/// Not thread-safe: its owner serializes every use (`CacheDatabase` does, under its lock).
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens the existing database file at `path` for reading and writing. SQLite refuses a path
    /// with a symbolic link in it (`SQLITE_OPEN_NOFOLLOW`), and waits up to `busyTimeout`
    /// milliseconds for another connection's lock before an operation gives up with `SQLITE_BUSY`.
    init(path: String, busyTimeout: Int32) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open the database"
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code, message: message)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
    }

    deinit {
        for statement in statements.values { statement.finalize() }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, one or more statements without parameters, ignoring any rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// The first column of the first row of `sql` as an integer; nil when it has no row.
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.integer(at: 0) : nil
    }

    /// The first column of the first row of `sql` as text; nil when it has no row.
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.text(at: 0) : nil
    }

    /// `sql`, prepared once and kept: reset it after use.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let kept = statements[sql] { return kept }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw error(code) }
        let statement = SQLiteStatement(prepared)
        statements[sql] = statement
        return statement
    }

    /// The rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` for one that writes, so that it waits for
    /// the write lock at its start, not at its first write): committed when `body` returns,
    /// rolled back when it throws.
    func transaction<Value>(
        writing: Bool, _ body: () throws(SQLiteError) -> Value
    ) throws(SQLiteError) -> Value {
        try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement: bind its parameters (numbered from 1), step through its rows, read
/// their columns (numbered from 0), reset it.
final class SQLiteStatement {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    func finalize() {
        sqlite3_finalize(handle)
    }

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ text: String, at index: Int32) {
        sqlite3_bind_text(handle, index, text, -1, Self.transient)
    }

    func bind(_ data: Data, at index: Int32) {
        data.withUnsafeBytes { bytes in
            // A pointer even for no bytes: SQLite binds NULL for a null pointer.
            _ = sqlite3_bind_blob64(
                handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count),
                Self.transient)
        }
    }

    /// Steps to the next row: true for a row, false when there is none left.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
    }

    /// Runs the statement to its end, ignoring its rows.
    func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Makes the statement ready to run again, with no parameters bound.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func integer(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func text(at column: Int32) -> String {
        sqlite3_column_text(handle, column).map { String(cString: $0) } ?? ""
    }

    func data(at column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies a bound value before the call returns.
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}

/// A failed SQLite call: its (extended) result code and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    /// Whether the file is not a sound database of SQLite's (damaged, cut short, or another
    /// kind of file): what rebuilding it cures.
    var isDamage: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_FORMAT
    }

    var description: String { message }
}

extension SQLiteError {
    /// A file SQLite reads but that is no cache of ours (another schema, another program's):
    /// treated as damage.
    static func notOurDatabase(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_NOTADB, message: message)
    }
}
