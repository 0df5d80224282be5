import CLITestSupport
import Foundation
import IPData
import XCTest

@testable import DiskCache

/// Several connections and several processes on one cache at once: no read ever sees a part of
/// an answer, a writer waits for another's lock and then gives up without an error, and the
/// database stays sound. No timings are asserted but the lock's.
final class SharingTests: XCTestCase {
    /// An answer for 8.8.8.8 of `size` bytes of `letter`.
    private func answer(_ letter: Character, _ size: Int) -> Data {
        Data(#"{"ip":"8.8.8.8","pad":"\#(String(repeating: letter, count: size))"}"#.utf8)
    }

    func testConnectionsRacingNeverSeeAPartAnswer() throws {
        let cache = try makeTestCache()
        let first = answer("a", 20_000)
        let second = answer("b", 30_000)
        let shared = key("8.8.8.8")
        let stores = try (0..<3).map { _ in try cache.store() }
        let seen = SeenSizes()
        // Two writers of one entry, readers, a neighbour's writer, and one clearing now and then.
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let store = stores[worker % stores.count]
            for round in 0..<150 {
                switch worker {
                case 0: store.store(entry(first), for: shared)
                case 1: store.store(entry(second), for: shared)
                case 2: store.store(entry(#"{"ip":"10.0.0.\#(round % 256)"}"#), for: key("10.0.0.\(round % 256)"))
                case 3: if round % 50 == 0 { store.database.clear() }
                default:
                    if let read = store.entry(for: shared) { seen.insert(read.json?.count ?? -1) }
                }
            }
        }
        XCTAssertTrue(seen.sizes.isSubset(of: [first.count, second.count]), "\(seen.sizes)")
        let store = try cache.store()
        store.store(entry(second), for: shared)
        XCTAssertEqual(store.entry(for: shared)?.json, second)
        for store in stores { XCTAssertNil(store.database.takeProblem(), "no operation failed") }
        XCTAssertEqual(
            try SQLiteConnection(path: cache.databasePath, busyTimeout: 1_000).text("PRAGMA integrity_check"), "ok")
    }

    /// Two processes of `cache-race` and this one, writing, reading and clearing one cache.
    func testProcessesShareTheCache() throws {
        let cache = try makeTestCache()
        let program = builtProductsFolder.appendingPathComponent("cache-race")
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            return XCTFail("cache-race is not built at \(program.path)")
        }
        _ = try cache.database()
        let processes = try (0..<2).map { worker -> (Process, Pipe) in
            let process = Process()
            let output = Pipe()
            process.executableURL = program
            process.arguments = [cache.directory, "\(worker)", "300"]
            (process.standardOutput, process.standardError) = (output, output)
            try process.run()
            return (process, output)
        }
        let store = try cache.store()
        let mine = answer("z", 25_000)
        var hits = 0
        for _ in 0..<300 {
            store.store(entry(mine), for: key("8.8.8.8"))
            if let read = store.entry(for: key("8.8.8.8")) {
                XCTAssertEqual(read.response.ip, "8.8.8.8")
                XCTAssertTrue(read.json == mine || (20_000...28_000).contains(read.json?.count ?? 0), "a whole answer")
                hits += 1
            }
        }
        for (process, output) in processes {
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, said)
            XCTAssertTrue(said.contains("300 reads"), said)
        }
        XCTAssertGreaterThan(hits, 0)
        XCTAssertEqual(
            try SQLiteConnection(path: cache.databasePath, busyTimeout: 1_000).text("PRAGMA integrity_check"), "ok")
    }

    /// `sqlite3` in another process holds the write lock for `seconds` while this one stores an
    /// answer; returns how long the store took.
    private func storeWhileAnotherProcessWrites(for seconds: Double, cache: TestCache) throws -> (
        SQLiteLookupStore, Double
    ) {
        guard let sqlite3 = ToolRun.path(of: "sqlite3") else { throw XCTSkip("needs sqlite3") }
        let store = try cache.store()
        store.store(entry(#"{"ip":"1.1.1.1"}"#), for: key("1.1.1.1"))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: sqlite3)
        holder.arguments = [cache.databasePath]
        let input = Pipe()
        let output = Pipe()
        (holder.standardInput, holder.standardOutput) = (input, output)
        try holder.run()
        input.fileHandleForWriting.write(
            Data(
                "BEGIN IMMEDIATE;\nDELETE FROM answer WHERE address = 'none';\n.print locked\n.shell sleep \(seconds)\nCOMMIT;\n"
                    .utf8))
        try input.fileHandleForWriting.close()
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            said.append(chunk)
        }
        XCTAssertNotNil(store.entry(for: key("1.1.1.1")), "readers do not wait for a writer")
        let start = Date()
        store.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        let took = Date().timeIntervalSince(start)
        holder.waitUntilExit()
        return (store, took)
    }

    func testAWriterWaitsForAnotherProcesssLock() throws {
        let cache = try makeTestCache()
        let (store, took) = try storeWhileAnotherProcessWrites(for: 0.8, cache: cache)
        XCTAssertGreaterThan(took, 0.3, "it waited for the lock")
        XCTAssertNotNil(store.entry(for: key("8.8.8.8")), "and then wrote")
        XCTAssertNil(store.database.takeProblem())
    }

    /// A lock held longer than the busy timeout (2 s): the answer is not kept, nothing throws,
    /// and the store says why once.
    func testAWriterGivesUpAfterTheBusyTimeoutWithoutAnError() throws {
        let cache = try makeTestCache()
        let (store, took) = try storeWhileAnotherProcessWrites(for: 4, cache: cache)
        XCTAssertGreaterThan(took, 1.5)
        XCTAssertLessThan(took, 3.9, "it gave up before the other let go")
        XCTAssertNil(store.entry(for: key("8.8.8.8")))
        let problem = try XCTUnwrap(store.database.takeProblem())
        XCTAssertTrue(problem.contains("locked"), problem)
        XCTAssertNil(store.database.takeProblem(), "said once")
        store.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        XCTAssertNotNil(store.entry(for: key("8.8.8.8")), "and the next write goes through")
    }

    /// The sizes of the answers readers saw.
    private final class SeenSizes: @unchecked Sendable {
        // @unchecked: `values` is read and written only under `lock`.
        private let lock = NSLock()
        private var values: Set<Int> = []

        func insert(_ size: Int) {
            lock.lock()
            values.insert(size)
            lock.unlock()
        }

        var sizes: Set<Int> {
            lock.lock()
            defer { lock.unlock() }
            return values
        }
    }
}
