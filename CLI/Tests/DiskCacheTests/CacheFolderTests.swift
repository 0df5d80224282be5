import CLILibC
import Foundation
import IPData
import XCTest

@testable import DiskCache

/// What another local user can plant is refused, in one line, and nothing is read from it or
/// written to it: a folder or a file of another user's, one that others may write to, a
/// symbolic link at the folder's or a file's name, a FIFO or a folder where a file belongs. The
/// tests make things another user's with `chown 4242` (a uid without an account), as root.
final class CacheFolderTests: XCTestCase {
    private let otherUser: uid_t = 4242

    /// Makes `path` another user's; skips the test when this process may not (it is not root).
    private func giveAway(_ path: String) throws {
        guard lchown(path, otherUser, gid_t(otherUser)) == 0 else {
            throw XCTSkip("needs root to make a file another user's (chown: \(String(cString: strerror(errno))))")
        }
    }

    /// The refusal `body` throws: one line, naming the cache's folder and ending with `reason`.
    private func assertRefused(
        _ cache: TestCache, _ reason: String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> Void
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertEqual(text, "not using the cache in \(cache.directory): \(reason)", file: file, line: line)
            XCTAssertFalse(text.contains("\n"), file: file, line: line)
        }
    }

    /// A cache folder of the user's, empty, mode 0700.
    private func makeFolder() throws -> TestCache {
        let cache = try makeTestCache()
        XCTAssertEqual(mkdir(cache.directory, 0o700), 0)
        return cache
    }

    // MARK: The folder

    /// Another user created the folder first (with forged answers in it, say): it is not used,
    /// neither for lookups nor for `cache info` or `clear`, and nothing is written in it.
    func testAFolderOfAnotherUserIsRefused() throws {
        let cache = try makeFolder()
        try giveAway(cache.directory)
        assertRefused(cache, "it belongs to another user (uid 4242)") { _ = try cache.database() }
        assertRefused(cache, "it belongs to another user (uid 4242)") {
            _ = try CacheDatabase.openExisting(cache.configuration())
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.directory), [])
    }

    func testAFolderThatOthersMayWriteToIsRefused() throws {
        for permissions: mode_t in [0o777, 0o770, 0o1777, 0o720, 0o702] {
            let cache = try makeFolder()
            XCTAssertEqual(chmod(cache.directory, permissions), 0)
            let shown = String(permissions, radix: 8)
            assertRefused(cache, "it is writable by others (mode \(shown))") { _ = try cache.database() }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.directory), [])
        }
        let readable = try makeFolder()
        XCTAssertEqual(chmod(readable.directory, 0o755), 0)
        XCTAssertNoThrow(try readable.database(), "readable by others, written only by the user: the user's choice")
    }

    func testAFolderThatIsASymbolicLinkIsRefused() throws {
        let target = try makeTemporaryDirectory()
        let cache = try makeTestCache()
        XCTAssertEqual(symlink(target.path, cache.directory), 0)
        assertRefused(cache, "it is a symbolic link") { _ = try cache.database() }
        assertRefused(cache, "it is a symbolic link") { _ = try CacheDatabase.openExisting(cache.configuration()) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target.path), [])
    }

    func testAFileWhereTheFolderBelongsIsRefused() throws {
        let cache = try makeTestCache()
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: cache.directory))
        assertRefused(cache, "it is not a folder") { _ = try cache.database() }
    }

    /// A link above the folder is the user's own setup (`~/.cache` elsewhere, `/tmp` on macOS):
    /// it is followed.
    func testALinkAboveTheFolderIsFollowed() throws {
        let real = try makeTemporaryDirectory()
        let link = try makeTemporaryDirectory().appendingPathComponent("cache-home")
        XCTAssertEqual(symlink(real.path, link.path), 0)
        let cache = TestCache(directory: link.path + "/ipdata")
        try cache.store().store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        XCTAssertNotNil(try cache.store().entry(for: key("8.8.8.8")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: real.path + "/ipdata/answers.sqlite"))
    }

    // MARK: The database's files

    func testADatabaseFileOfAnotherUserIsRefused() throws {
        for name in CacheFolder.fileNames {
            let cache = try makeFolder()
            let path = cache.directory + "/" + name
            XCTAssertTrue(
                FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
            try giveAway(path)
            assertRefused(cache, "\(name) belongs to another user (uid 4242)") { _ = try cache.database() }
        }
    }

    func testADatabaseFileThatOthersMayWriteToIsRefusedAndOneTheyMayReadIsMade0600() throws {
        for name in CacheFolder.fileNames {
            let cache = try makeFolder()
            let path = cache.directory + "/" + name
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
            XCTAssertEqual(chmod(path, 0o620), 0)
            assertRefused(cache, "\(name) is writable by others (mode 620)") { _ = try cache.database() }
        }
        let cache = try makeFolder()
        XCTAssertTrue(FileManager.default.createFile(atPath: cache.databasePath, contents: nil))
        XCTAssertEqual(chmod(cache.databasePath, 0o644), 0)
        let store = try cache.store()
        store.store(entry(#"{"ip":"8.8.8.8"}"#), for: key("8.8.8.8"))
        for name in CacheFolder.fileNames { XCTAssertEqual(mode(of: cache.directory + "/" + name), 0o600, name) }
    }

    /// A link at the database's name, or at its WAL's or its shared memory's (which SQLite
    /// would open by name), to a file outside the cache or to nothing: refused, and the file
    /// outside is neither read nor written nor created.
    func testALinkAtTheDatabaseOrItsWALOrItsSharedMemoryIsRefused() throws {
        let outside = try makeTemporaryDirectory()
        for name in CacheFolder.fileNames {
            for dangling in [false, true] {
                let cache = try makeFolder()
                let target = outside.appendingPathComponent("\(name)-\(dangling)")
                if !dangling { try Data("the user's file".utf8).write(to: target) }
                XCTAssertEqual(symlink(target.path, cache.directory + "/" + name), 0)
                assertRefused(cache, "\(name) is a symbolic link") { _ = try cache.database() }
                if dangling {
                    XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), name)
                } else {
                    XCTAssertEqual(try Data(contentsOf: target), Data("the user's file".utf8), name)
                }
            }
        }
    }

    /// A FIFO at a file's name would hang every later run that opened it: it is refused at once.
    func testAFIFOAtTheDatabaseOrItsFilesIsRefusedWithoutWaiting() throws {
        for name in CacheFolder.fileNames {
            let cache = try makeFolder()
            XCTAssertEqual(mkfifo(cache.directory + "/" + name, 0o600), 0)
            let done = DispatchSemaphore(value: 0)
            let outcome = OutcomeBox()
            Thread.detachNewThread {
                do {
                    _ = try cache.database()
                    outcome.set("opened")
                } catch {
                    outcome.set("\(error)")
                }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "\(name): still waiting after 10 s")
            XCTAssertEqual(outcome.get(), "not using the cache in \(cache.directory): \(name) is not a regular file")
        }
    }

    func testAFolderWhereTheDatabaseBelongsIsRefused() throws {
        let cache = try makeFolder()
        XCTAssertEqual(mkdir(cache.databasePath, 0o700), 0)
        assertRefused(cache, "answers.sqlite is not a regular file") { _ = try cache.database() }
    }

    /// What a thread found, for the test to read.
    private final class OutcomeBox: @unchecked Sendable {
        // @unchecked: `value` is read and written only under `lock`.
        private let lock = NSLock()
        private var value: String?

        func set(_ text: String) {
            lock.lock()
            value = text
            lock.unlock()
        }

        func get() -> String? {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }
}
