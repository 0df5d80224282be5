// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// Whatever fails, a key never appears in what the tool prints. Each case runs with a sentinel
/// key passed as the option, as the variable, or from the configuration file.
final class KeySecrecyTests: CommandLineTestCase {
    private let sentinel = "SENTINEL-KEY-7f3a9c"

    private func assertNoSentinel(_ run: BuiltBinary.Run, _ label: String, line: UInt = #line) {
        XCTAssertFalse(run.stdout.contains(sentinel), "stdout of \(label): \(run.stdout)", line: line)
        XCTAssertFalse(run.stderr.contains(sentinel), "stderr of \(label): \(run.stderr)", line: line)
        XCTAssertNotEqual(run.status, 0, label, line: line)
    }

    func testAKeyGivenAsTheOptionIsNeverPrinted() throws {
        let failing: [[String]] = [
            ["8.8.8.8"] + base,
            ["8.8.8.8", "1.1.1.1"] + base,
            ["AS15169"] + base,
            ["--field", "asn"] + base,
            ["8.8.8.8", "--base-url", "https://127.0.0.1:9"],
            ["8.8.8.8", "--base-url", server["IPDATA_TEST_URL_BASIC_AUTH"] ?? ""],
            ["8.8.8.8", "--bogus"],
            ["--format", "xml"],
            ["--eu", "--base-url", "https://x.test"],
            [sentinel] + base,
            ["8.8.8.8", "--field"],
            ["8.8.8.8", "1.1.1.1", "--verbose"] + base,
            ["8.8.8.8", "--field", "asn", "--verbose"] + base,
            ["8.8.8.8", "--verbose", "--retries", "0", "--base-url", "https://127.0.0.1:9"],
        ]
        for arguments in failing {
            for form in [["--api-key", sentinel], ["--api-key=\(sentinel)"]] {
                let run = try ipdata(form + arguments, key: .absent)
                assertNoSentinel(run, (form + arguments).joined(separator: " "))
            }
        }
        let bulk = try ipdata(["bulk", "--api-key", sentinel] + base, key: .absent, stdin: "8.8.8.8\n10.0.0.1\n")
        assertNoSentinel(bulk, "bulk")
        let misplaced = try ipdata(["--eu=\(sentinel)"], key: .absent)
        assertNoSentinel(misplaced, "a key given to a flag")
    }

    func testAKeyFromTheVariableIsNeverPrinted() throws {
        for arguments in [
            ["8.8.8.8"] + base, ["bulk"] + base, ["8.8.8.8", "--base-url", "https://127.0.0.1:9"],
            ["bulk", "--verbose"] + base,
        ] {
            let run = try ipdata(arguments, key: .given(sentinel), stdin: "8.8.8.8\n")
            assertNoSentinel(run, arguments.joined(separator: " "))
        }
    }

    func testAKeyFromTheFileIsNeverPrinted() throws {
        // Nothing listens on port 9: init stores the key unchecked, with a warning.
        let stored = try ipdata(["init", sentinel, "--base-url", "https://127.0.0.1:9"], key: .absent)
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertTrue(stored.stderr.hasPrefix("ipdata: warning: could not check the key"), stored.stderr)
        XCTAssertFalse(stored.stderr.contains(sentinel), stored.stderr)
        let refused = try ipdata(["init", sentinel] + base, key: .absent)
        assertNoSentinel(refused, "init with a refused key")
        for arguments in [
            ["8.8.8.8"] + base, ["bulk", "-"] + base, ["1.1.1.1", "--field", "asn"] + base,
            ["1.1.1.1", "--field", "asn", "--verbose"] + base,
        ] {
            let run = try ipdata(arguments, key: .absent, stdin: "1.1.1.1\n")
            assertNoSentinel(run, arguments.joined(separator: " "))
        }
    }
}
#endif
