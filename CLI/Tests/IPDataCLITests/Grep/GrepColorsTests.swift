// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// When `ipdata grep` colours its output, and how a bare `--color` is read.
final class GrepColorsTests: XCTestCase {
    func testAutoColoursATerminalUnlessNOCOLOROrADumbTerminal() {
        let term = ["TERM": "xterm-256color"]
        XCTAssertTrue(GrepColors.auto.isOn(environment: term, isTerminal: true))
        XCTAssertTrue(GrepColors.auto.isOn(environment: term.merging(["NO_COLOR": ""]) { $1 }, isTerminal: true))
        XCTAssertFalse(GrepColors.auto.isOn(environment: term, isTerminal: false))
        XCTAssertFalse(GrepColors.auto.isOn(environment: term.merging(["NO_COLOR": "1"]) { $1 }, isTerminal: true))
        XCTAssertFalse(GrepColors.auto.isOn(environment: ["TERM": "dumb"], isTerminal: true))
        XCTAssertFalse(GrepColors.auto.isOn(environment: [:], isTerminal: true))
    }

    /// An option given for one run wins over `NO_COLOR`, as no-color.org asks.
    func testAlwaysAndNeverAreWhatTheySay() {
        for environment in [[:], ["NO_COLOR": "1"], ["TERM": "dumb"]] {
            for isTerminal in [true, false] {
                XCTAssertTrue(GrepColors.always.isOn(environment: environment, isTerminal: isTerminal))
                XCTAssertFalse(GrepColors.never.isOn(environment: environment, isTerminal: isTerminal))
            }
        }
    }

    func testABareColorIsAutoAndTheRestIsLeftAsItIs() {
        XCTAssertEqual(
            GrepColors.withDefaultValue(["grep", "--color", "a.log", "--color=never", "--", "--color"]),
            ["grep", "--color=auto", "a.log", "--color=never", "--", "--color"])
        XCTAssertEqual(GrepColors.withDefaultValue(["grep", "--colors", "-c"]), ["grep", "--colors", "-c"])
    }
}
#endif
