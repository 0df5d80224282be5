/// logfmt's `key=value` pairs: reading a key's value from a line, and writing a value as logfmt
/// quotes it.
///
/// A value with a space, a control character, `=` or `"` is quoted, with `"` and `\` escaped
/// (`\"`, `\\`), line breaks and tabs written `\n`, `\r`, `\t`, and other characters a terminal
/// acts on `\u` and their code; an empty value is `""`.
enum LogfmtText {
    /// The value of the first pair named `key` in `line`, unquoted; nil when there is none.
    static func value(of key: String, in line: ArraySlice<UInt8>) -> String? {
        let bytes = Array(line)
        let wanted = Array(key.utf8)
        var position = 0
        while position < bytes.count {
            while position < bytes.count, bytes[position] <= 0x20 { position += 1 }
            let start = position
            while position < bytes.count, bytes[position] > 0x20, bytes[position] != UInt8(ascii: "=") {
                if bytes[position] == UInt8(ascii: "\"") { break }
                position += 1
            }
            let name = bytes[start..<position]
            var value: [UInt8] = []
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                    position += 1
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                        if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count { position += 1 }
                        value.append(bytes[position])
                        position += 1
                    }
                    position += 1
                } else {
                    while position < bytes.count, bytes[position] > 0x20 {
                        value.append(bytes[position])
                        position += 1
                    }
                }
            } else if position == start {
                // A stray quote or other byte that starts no key: step over it.
                position += 1
            }
            if Array(name) == wanted { return String(decoding: value, as: UTF8.self) }
        }
        return nil
    }

    /// `value` as a logfmt value: as it is, or quoted and escaped when it needs to be.
    static func quoted(_ value: String) -> String {
        let needsQuotes =
            value.isEmpty || value.unicodeScalars.contains { $0.value <= 0x20 || $0 == "=" || $0 == "\"" || acts($0) }
        guard needsQuotes else { return value }
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where acts(scalar):
                text += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// Whether a terminal acts on `scalar` (a control character, a C1 control, a bidirectional
    /// override): what `TerminalText` writes out. A log line is shown on terminals, so an
    /// answer's text can neither forge a line nor act on one.
    private static func acts(_ scalar: Unicode.Scalar) -> Bool {
        TerminalText.escaped(String(scalar)) != String(scalar)
    }

    /// A `key=value` pair.
    static func pair(_ key: String, _ value: String) -> String {
        key + "=" + quoted(value)
    }
}

extension String {
    /// The text with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
