// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// The answers kept for addresses read again: bounded, but never dropped while a duplicate waits.
final class InputLedgerTests: XCTestCase {
    private func answer(_ ip: String) -> InputLedger.Answer {
        InputLedger.Answer(record: ["ip": .string(ip)], failed: false, status: .success)
    }

    func testAnAddressStillToBeWrittenIsADuplicate() {
        let ledger = InputLedger()
        XCTAssertFalse(ledger.admit("8.8.8.8"), "the first reading is sent")
        XCTAssertTrue(ledger.admit("8.8.8.8"), "the second waits for its answer")
        ledger.answered("8.8.8.8", with: answer("8.8.8.8"))
        XCTAssertEqual(ledger.answerForDuplicate(of: "8.8.8.8")?.record, ["ip": .string("8.8.8.8")])
        XCTAssertEqual(ledger.duplicatesAnswered, 1)
    }

    func testTheMostRecentAnswersAreKeptAndTheOldestDropped() {
        let ledger = InputLedger()
        let count = InputLedger.keptAnswers + 10
        for index in 0..<count {
            let key = "9.0.\(index / 256).\(index % 256)"
            XCTAssertFalse(ledger.admit(key))
            ledger.answered(key, with: answer(key))
        }
        XCTAssertFalse(ledger.admit("9.0.0.0"), "the oldest answer was dropped: sent again")
        XCTAssertTrue(ledger.admit("9.0.0.20"), "a recent answer is kept")
    }

    func testAnAnswerADuplicateWaitsForIsNeverDropped() {
        let ledger = InputLedger()
        XCTAssertFalse(ledger.admit("8.8.8.8"))
        XCTAssertTrue(ledger.admit("8.8.8.8"))
        ledger.answered("8.8.8.8", with: answer("8.8.8.8"))
        for index in 0..<(2 * InputLedger.keptAnswers) {
            let key = "9.0.\(index / 256).\(index % 256)"
            _ = ledger.admit(key)
            ledger.answered(key, with: answer(key))
        }
        XCTAssertNotNil(ledger.answerForDuplicate(of: "8.8.8.8"), "kept for the duplicate that waited")
    }

    func testARunStoppedOnAnAddressHasNoAnswerForItsDuplicates() {
        let ledger = InputLedger()
        XCTAssertFalse(ledger.admit("8.8.8.8"))
        XCTAssertTrue(ledger.admit("8.8.8.8"))
        ledger.answered("8.8.8.8", with: nil)
        XCTAssertNil(ledger.answerForDuplicate(of: "8.8.8.8"))
        XCTAssertEqual(ledger.duplicatesAnswered, 0)
    }
}
#endif
