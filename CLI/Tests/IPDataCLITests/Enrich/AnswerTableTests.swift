// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// The answers `ipdata enrich` shares between repeats: sent once while held or in flight, pinned
/// while a line needs them, the least recently used of the others dropped.
final class AnswerTableTests: XCTestCase {
    func testAnAddressInFlightOrAnsweredIsNotSentAgain() {
        var table = AnswerTable<Int>(capacity: 2)
        XCTAssertTrue(table.claim("a"))
        XCTAssertFalse(table.claim("a"), "in flight")
        table.answer("a", with: 1)
        XCTAssertFalse(table.claim("a"), "answered")
        XCTAssertEqual(table.answer(for: "a"), 1)
    }

    func testAPinnedAnswerIsKeptWhateverTheCapacity() {
        var table = AnswerTable<Int>(capacity: 1)
        XCTAssertTrue(table.claim("hot"))
        table.answer("hot", with: 0)
        // A line waiting holds "hot" while 1,000 other addresses come and go.
        for index in 1...1_000 {
            XCTAssertTrue(table.claim("\(index)"))
            table.answer("\(index)", with: index)
            table.release("\(index)")
        }
        XCTAssertEqual(table.answer(for: "hot"), 0)
        XCTAssertEqual(table.count, 2, "hot, and the one answer kept")
        XCTAssertFalse(table.claim("hot"))
    }

    func testTheLeastRecentlyUsedAnswerIsDroppedFirst() {
        var table = AnswerTable<Int>(capacity: 2)
        for key in ["a", "b"] {
            XCTAssertTrue(table.claim(key))
            table.answer(key, with: 0)
            table.release(key)
        }
        // "a" is used again, so "b" is now the least recently used.
        XCTAssertFalse(table.claim("a"))
        table.release("a")
        XCTAssertTrue(table.claim("c"))
        table.answer("c", with: 0)
        table.release("c")
        XCTAssertEqual(table.unpinnedCount, 2)
        XCTAssertNil(table.answer(for: "b"))
        XCTAssertFalse(table.claim("a"))
        XCTAssertTrue(table.claim("b"), "dropped, so sent again")
    }
}
#endif
