// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// Text for a terminal: control characters written out, widths in columns, cutting with `…`.
final class TerminalTextTests: XCTestCase {
    func testControlCharactersAreWrittenOut() {
        XCTAssertEqual(TerminalText.escaped("\u{1B}[31mred\u{1B}[0m"), "\\x1b[31mred\\x1b[0m")
        XCTAssertEqual(TerminalText.escaped("\u{1B}]0;title\u{07}"), "\\x1b]0;title\\x07")
        XCTAssertEqual(TerminalText.escaped("nul\u{0} del\u{7F} csi\u{9B}"), "nul\\x00 del\\x7f csi\\x9b")
        XCTAssertEqual(TerminalText.escaped("tab\tline\n"), "tab\\x09line\\x0a")
    }

    func testBidirectionalOverridesAreWrittenOut() {
        XCTAssertEqual(TerminalText.escaped("abc\u{202E}fed\u{2066}"), "abc\\u202efed\\u2066")
    }

    /// In JSON, what a terminal acts on and JSON may hold raw becomes JSON's escape: the same value.
    func testJSONKeepsItsValuesWithItsEscapes() throws {
        let json = Data("{\"a\": \"csi\u{9B}2J rtl\u{202E} del\u{7F} Zürich 東京 \\u001b\"}".utf8)
        let escaped = TerminalText.escapedJSON(json)
        XCTAssertEqual(
            String(decoding: escaped, as: UTF8.self), #"{"a": "csi\u009b2J rtl\u202e del\u007f Zürich 東京 \u001b"}"#)
        XCTAssertEqual(try JSONParser.parse(escaped), try JSONParser.parse(json))
        let plain = Data(#"{"city": "Zürich"}"#.utf8)
        XCTAssertEqual(TerminalText.escapedJSON(plain), plain)
    }

    func testPrintableTextIsLeftAlone() {
        for text in ["8.8.8.8", "Zürich", "東京", "🇺🇸", "e\u{301}", "a\\x1b"] {
            XCTAssertEqual(TerminalText.escaped(text), text)
        }
    }

    func testWidthCountsColumns() {
        XCTAssertEqual(TerminalText.width("Mountain View"), 13)
        XCTAssertEqual(TerminalText.width("東京"), 4)
        XCTAssertEqual(TerminalText.width("서울"), 4)
        XCTAssertEqual(TerminalText.width("ＡＢ"), 4, "full-width forms")
        XCTAssertEqual(TerminalText.width("🇺🇸"), 2, "a flag is one wide glyph")
        XCTAssertEqual(TerminalText.width("🇺🇸🇩🇪"), 4)
        XCTAssertEqual(TerminalText.width("👨‍👩‍👧"), 2, "a joined emoji sequence")
        XCTAssertEqual(TerminalText.width("❤️"), 2, "emoji presentation selector")
        XCTAssertEqual(TerminalText.width("🌍"), 2)
        XCTAssertEqual(TerminalText.width("e\u{301}"), 1, "a combining mark takes no column")
        XCTAssertEqual(TerminalText.width("\u{301}"), 0)
        XCTAssertEqual(TerminalText.width("a\u{200B}b"), 2, "zero-width space")
        XCTAssertEqual(TerminalText.width("Tōkyō …"), 7)
    }

    func testTruncationEndsWithAnEllipsisWithinTheWidth() {
        XCTAssertEqual(TerminalText.truncated("Mountain View", toWidth: 13), "Mountain View")
        XCTAssertEqual(TerminalText.truncated("Mountain View", toWidth: 8), "Mountai…")
        XCTAssertEqual(TerminalText.truncated("東京タワー", toWidth: 6), "東京…", "a wide character is not split")
        XCTAssertEqual(TerminalText.truncated("🇺🇸🇩🇪🇫🇷", toWidth: 5), "🇺🇸🇩🇪…")
        XCTAssertEqual(TerminalText.truncated("abc", toWidth: 1), "…")
        XCTAssertEqual(TerminalText.truncated("abc", toWidth: 0), "")
    }
}
#endif
