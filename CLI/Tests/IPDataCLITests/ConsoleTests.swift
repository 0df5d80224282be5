// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// Messages never carry the API key, and are one line each.
final class ConsoleTests: XCTestCase {
    func testTheKeysOfTheCommandLineAndTheEnvironmentAreRedacted() {
        let console = Console(
            arguments: ["--api-key", "arg-key-1", "--api-key=arg-key-2", "8.8.8.8"],
            environment: ["IPDATA_API_KEY": "env-key-3"])
        XCTAssertEqual(
            console.redact("arg-key-1 arg-key-2 env-key-3 8.8.8.8"), "REDACTED REDACTED REDACTED 8.8.8.8")
    }

    func testAnAddedKeyIsRedactedAsGivenAndPercentEncoded() {
        let console = Console(keys: [])
        console.addSecret("k/y+z")
        XCTAssertEqual(console.redact("k/y+z and k%2Fy%2Bz"), "REDACTED and REDACTED")
    }

    func testErrorsAreColouredOnlyOnATerminalWithoutNO_COLOR() {
        XCTAssertTrue(Console.usesColour(environment: [:], isTerminal: true))
        XCTAssertTrue(Console.usesColour(environment: ["NO_COLOR": ""], isTerminal: true), "empty: no-color.org")
        XCTAssertFalse(Console.usesColour(environment: [:], isTerminal: false))
        for value in ["1", "0", "false", "yes"] {
            XCTAssertFalse(Console.usesColour(environment: ["NO_COLOR": value], isTerminal: true), value)
        }
        XCTAssertFalse(Console.usesColour(environment: ["TERM": "dumb"], isTerminal: true))
        XCTAssertTrue(Console.usesColour(environment: ["TERM": "xterm-256color"], isTerminal: true))
    }

    func testAMessageIsOneLine() {
        let console = Console(keys: [])
        XCTAssertEqual(console.oneLine("first\nsecond\r\nthird"), "first second third")
    }
}
#endif
