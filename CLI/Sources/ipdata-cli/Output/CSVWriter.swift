import Foundation

/// Writes records as CSV: a header row of the column paths, then one row per record.
///
/// Fields are quoted as RFC 4180 says: a field holding a comma, a double quote or a line break
/// is enclosed in double quotes, with each double quote doubled. Lines end with `\n`.
///
/// A field that a spreadsheet would take for a formula (it starts with `=`, `+`, `-`, `@`, a tab
/// or a carriage return) gets a `'` in front, as OWASP advises against CSV injection, unless it
/// is a plain number such as `-33.494` (a negative latitude), which no spreadsheet runs.
///
/// To a file or a pipe, a value is the API's, line breaks and control characters included,
/// quoted as RFC 4180 says, so that a CSV reader reads it back as it was. To a terminal, its
/// control characters are written out (`\x1b`, see `TerminalText.escaped`), so that an answer
/// cannot act on the terminal.
final class CSVWriter: RecordWriter {
    private let columns: [String]
    private let sink: OutputSink
    private var wroteHeader = false
    private let forTerminal: Bool

    /// A writer of rows with `columns` into `sink`; with `headerWritten`, the sink already holds
    /// the header row (an output `ipdata bulk --resume` continues); `forTerminal` when the sink
    /// is a terminal.
    init(columns: [String], sink: OutputSink, headerWritten: Bool = false, forTerminal: Bool = false) {
        self.columns = columns
        self.sink = sink
        self.wroteHeader = headerWritten
        self.forTerminal = forTerminal
    }

    func write(_ record: Record) throws {
        let row = columns.map { column in
            let value = record.value(at: column)?.cellText ?? ""
            return Self.field(forTerminal ? TerminalText.escaped(value) : value)
        }
        try sink.write(header() + row.joined(separator: ",") + "\n")
    }

    func finish() throws {
        try sink.write(header())
        try sink.flush()
    }

    /// The header row the first time, then nothing.
    private func header() -> String {
        guard !wroteHeader else { return "" }
        wroteHeader = true
        return columns.map { Self.field(forTerminal ? TerminalText.escaped($0) : $0) }.joined(separator: ",") + "\n"
    }

    /// One field: neutralised when a spreadsheet would run it, quoted when it must be.
    static func field(_ value: String) -> String {
        let text = isFormula(value) ? "'" + value : value
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet would read `text` as a formula: it starts with one of OWASP's
    /// characters and is not a plain number.
    static func isFormula(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return false }
        return !isPlainNumber(text)
    }

    /// `-12`, `+3.5`, `-1e-05`: digits, sign, point and exponent only, read whole as a number.
    private static func isPlainNumber(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { "0123456789.eE+-".unicodeScalars.contains($0) } && Double(text) != nil
    }
}
