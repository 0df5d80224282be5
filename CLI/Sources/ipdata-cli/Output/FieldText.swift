import Foundation

/// The lines `--field` writes: a value alone, or for one address of several
/// `ADDRESS<TAB>VALUE` (the value on one line) and `ADDRESS<TAB><TAB>ERROR`.
///
/// A value alone is the API's text as it is, to a file or a pipe. To a terminal, its control
/// characters are written out (`\x1b`, as `TerminalText.escaped` does), so that an escape
/// sequence or a carriage return in an answer cannot act on the terminal or forge a line; a JSON
/// object or array keeps its lines and stays JSON (see `TerminalText.escapedJSON`). The lines of
/// several addresses are a text format of one line each: their line breaks and tabs become
/// spaces, and control characters are written out wherever they go.
struct FieldText {
    /// Whether the lines go to a terminal (see `Terminal.showsOutput(at:)`).
    let forTerminal: Bool

    /// The line of a value printed alone (one address, an ASN, the own address), with its `\n`.
    func line(_ value: String) -> String {
        var value = value
        if value.unicodeScalars.last == "\n" { value.unicodeScalars.removeLast() }
        guard forTerminal else { return value + "\n" }
        // The line breaks of a JSON object or array are its layout, and JSON escapes the control
        // characters of its strings: those it may hold unescaped become JSON's escapes too. A
        // text's line breaks are its own.
        switch try? JSONParser.parse(Data(value.utf8)) {
        case .object?, .array?:
            return String(decoding: TerminalText.escapedJSON(Data(value.utf8)), as: UTF8.self) + "\n"
        default:
            return TerminalText.escaped(value) + "\n"
        }
    }

    /// The line of one address of several: its value on one line, line breaks and tabs (the
    /// white space between JSON tokens) as spaces.
    func line(address: String, value: String) -> String {
        var value = value
        while value.last?.isNewline == true { value.removeLast() }
        return "\(shown(address))\t\(shown(String(value.map { $0.isNewline || $0 == "\t" ? " " : $0 })))\n"
    }

    /// The line of one address whose lookup failed: an empty value, then `error`, a message on
    /// one line.
    func line(address: String, error: String) -> String {
        "\(shown(address))\t\t\(shown(error))\n"
    }

    private func shown(_ text: String) -> String {
        TerminalText.escaped(text)
    }
}
