import Foundation

/// Writes records as CSV: a header row of the column paths, then one row per record.
///
/// Fields are quoted as RFC 4180 says: a field holding a comma, a double quote or a line break
/// is enclosed in double quotes, with each double quote doubled. Lines end with `\n`.
///
/// A field that a spreadsheet would take for a formula (it starts with `=`, `+`, `-`, `@`, a tab
/// or a carriage return) gets a `'` in front, as OWASP advises against CSV injection, unless it
/// is a plain number such as `-33.494` (a negative latitude), which no spreadsheet runs.
final class CSVWriter: RecordWriter {
    private let columns: [String]
    private let sink: OutputSink
    private var wroteHeader = false

    /// A writer of rows with `columns` into `sink`; with `headerWritten`, the sink already holds
    /// the header row (an output `ipdata bulk --resume` continues).
    init(columns: [String], sink: OutputSink, headerWritten: Bool = false) {
        self.columns = columns
        self.sink = sink
        self.wroteHeader = headerWritten
    }

    func write(_ record: Record) throws {
        let row = columns.map { Self.field(record.value(at: $0)?.cellText ?? "") }
        try sink.write(header() + row.joined(separator: ",") + "\n")
    }

    func finish() throws {
        try sink.write(header())
    }

    /// The header row the first time, then nothing.
    private func header() -> String {
        guard !wroteHeader else { return "" }
        wroteHeader = true
        return columns.map(Self.field).joined(separator: ",") + "\n"
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
