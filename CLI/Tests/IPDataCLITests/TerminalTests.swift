// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import CLILibC
import XCTest

@testable import ipdata_cli

/// The terminal width that the table and the progress bar fit: `COLUMNS`, else the terminal's
/// own size, else 80.
final class TerminalTests: XCTestCase {
    func testColumnsWins() {
        XCTAssertEqual(Terminal.width(of: [], columnsVariable: "60"), 60)
        XCTAssertEqual(Terminal.width(of: [], columnsVariable: " 132 "), 132)
    }

    func testAColumnsThatIsNoWidthIsIgnored() {
        for value in ["", "0", "-5", "wide", "80x24"] {
            XCTAssertEqual(Terminal.width(of: [], columnsVariable: value), 80, value)
        }
    }

    func testWithoutATerminalTheWidthIs80() throws {
        let pipe = Pipe()
        XCTAssertFalse(Terminal.isTerminal(pipe.fileHandleForWriting.fileDescriptor))
        XCTAssertEqual(Terminal.width(of: [pipe.fileHandleForWriting.fileDescriptor], columnsVariable: nil), 80)
    }

    func testATerminalGivesItsOwnWidth() throws {
        #if !os(Linux)
        throw XCTSkip("TIOCSWINSZ is a function-like macro that Swift does not import on Darwin")
        #else
        let (controller, terminal) = try openPseudoTerminal()
        defer {
            close(terminal)
            close(controller)
        }
        XCTAssertTrue(Terminal.isTerminal(terminal))
        XCTAssertEqual(Terminal.width(of: [terminal], columnsVariable: nil), 80, "a terminal of no size")
        for columns in [60, 80, 132] {
            var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            XCTAssertEqual(ioctl(terminal, UInt(TIOCSWINSZ), &size), 0)
            XCTAssertEqual(Terminal.width(of: [terminal], columnsVariable: nil), columns)
            XCTAssertEqual(Terminal.width(of: [terminal], columnsVariable: "100"), 100, "COLUMNS first")
        }
        let pipe = Pipe()
        XCTAssertEqual(
            Terminal.width(of: [pipe.fileHandleForWriting.fileDescriptor, terminal], columnsVariable: nil), 132,
            "the first descriptor that is a terminal")
        #endif
    }

    #if os(Linux)
    /// A new pseudo-terminal: its controller side and its terminal side. Glibc's Swift module
    /// leaves out the POSIX pseudo-terminal calls (they need _XOPEN_SOURCE), so they are looked up
    /// in the C library by name.
    private func openPseudoTerminal() throws -> (Int32, Int32) {
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        guard let openSymbol = dlsym(nil, "posix_openpt"), let grantSymbol = dlsym(nil, "grantpt"),
            let unlockSymbol = dlsym(nil, "unlockpt"), let nameSymbol = dlsym(nil, "ptsname")
        else { throw XCTSkip("no pseudo-terminal calls in the C library") }
        let controller = unsafeBitCast(openSymbol, to: Call.self)(O_RDWR | O_NOCTTY)
        guard controller >= 0, unsafeBitCast(grantSymbol, to: Call.self)(controller) == 0,
            unsafeBitCast(unlockSymbol, to: Call.self)(controller) == 0,
            let name = unsafeBitCast(nameSymbol, to: Name.self)(controller)
        else { throw XCTSkip("no pseudo-terminal: \(String(cString: strerror(errno)))") }
        let terminal = open(name, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw XCTSkip("cannot open \(String(cString: name))") }
        return (controller, terminal)
    }
    #endif
}
#endif
