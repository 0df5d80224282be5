// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// What a person sees in a terminal: control characters written out, a table that fits the
/// terminal, and a progress bar that fits it and stays out of the records. The terminal tests
/// run `ipdata` on a real pseudo-terminal (util-linux `script`) of 60 and 80 columns.
/// What a person sees in a terminal: control characters written out.
final class TerminalOutputTests: CommandLineTestCase {
    // MARK: Control characters

    func testAnEscapeSequenceInAnErrorLineIsWrittenOut() throws {
        let run = try ipdata(["\u{1B}]0;pwned\u{07}\u{1B}[31m8.8.8.8"] + base)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stderr,
            "ipdata: Bad Request: \\x1b]0;pwned\\x07\\x1b[31m8.8.8.8 does not appear to be an IPv4 or IPv6 address\n")
    }

    func testAnEscapeSequenceInATableCellIsWrittenOut() throws {
        let run = try ipdata(
            ["bulk", "--format", "table", "-f", "ip,country_code"] + base, stdin: "\u{1B}[2J\u{1B}[Hx\n8.8.8.8\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertFalse(run.stdout.contains("\u{1B}"), run.stdout)
        XCTAssertTrue(run.stdout.contains("\n\\x1b[2J\\x1b[Hx  "), run.stdout)
        XCTAssertTrue(run.stdout.contains("Bad Request: \\x1b[2J\\x1b[Hx does not"), run.stdout)
    }
}
#endif
