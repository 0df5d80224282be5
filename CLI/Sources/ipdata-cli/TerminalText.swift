import Foundation

/// Text made safe for a terminal and measured as a terminal shows it: what the table, the lines
/// on standard error, and values in text formats use.
enum TerminalText {
    /// `text` with every character a terminal would act on instead of showing written out:
    /// C0 and C1 control characters and DEL as `\x1b`, and the bidirectional overrides and
    /// isolates (which can make text read differently from what it holds) as `\u202e`.
    ///
    /// Escape sequences from the input or from an answer then show as text, and cannot move the
    /// cursor, change colours or retitle the window. Line breaks and tabs are escaped too: callers
    /// that want them as spaces replace them first.
    ///
    /// This is the one rule for a value from an answer in a text format: the table, CSV and
    /// `--field` on a terminal, the lines `enrich` adds to a log (where a line break in a hostile
    /// answer would forge a line).
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                escaped.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            escaped += scalar.value <= 0xFF ? "\\x" + padded(hex, to: 2) : "\\u" + padded(hex, to: 4)
        }
        return escaped
    }

    /// How many columns a terminal gives `text`: East Asian wide characters and emoji count 2 (a
    /// flag, two regional indicators, is one emoji), combining marks and other zero-width
    /// characters 0, everything else 1.
    static func width(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` cut to at most `columns` columns, ending with `…` when something was cut.
    static func truncated(_ text: String, toWidth columns: Int) -> String {
        guard width(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let characterWidth = width(of: character)
            if used + characterWidth > columns - 1 { break }
            kept.append(character)
            used += characterWidth
        }
        return kept + "…"
    }

    /// The columns of one character (one grapheme cluster, as Swift counts them).
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if isZeroWidth(first) { return 0 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count > 1 ? 2 : 1 }
        if first.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") { return 2 }
        return wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth characters outside the emoji: CJK ideographs, kana, Hangul,
    /// full-width forms. (Emoji are found through `isEmojiPresentation`.)
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,  // CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // full-width forms
        0xFFE0...0xFFE6,  // full-width signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut
        0x1B000...0x1B2FF,  // kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK Extensions B to F
        0x30000...0x3FFFD,  // CJK Extension G and later
    ]

    /// A scalar that takes no column when it starts a character: a combining mark, or a
    /// zero-width space, joiner or mark.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        default:
            return (0x200B...0x200F).contains(scalar.value) || (0x2060...0x2064).contains(scalar.value)
                || scalar.value == 0xFEFF
        }
    }

    /// JSON text with the characters `escaped(_:)` writes out that JSON may hold unescaped (C1
    /// control characters, DEL and the bidirectional controls, which can only be in its strings)
    /// written as JSON's `\u` escapes instead: the same JSON values, safe on a terminal. JSON
    /// writes C0 control characters as escapes already.
    static func escapedJSON(_ json: Data) -> Data {
        // Each of them is two or three bytes of UTF-8 starting with 0xC2, 0xD8 or 0xE2, or DEL.
        guard json.contains(where: { $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0x7F }) else { return json }
        let text = String(decoding: json, as: UTF8.self)
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x7F, needsEscape(scalar) {
                escaped += "\\u" + padded(String(scalar.value, radix: 16), to: 4)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return Data(escaped.utf8)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func padded(_ hex: String, to count: Int) -> String {
        String(repeating: "0", count: max(0, count - hex.count)) + hex
    }
}
