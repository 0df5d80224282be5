/// Writes records as tab-separated values: a header row of the column paths, then one row per
/// record, each line ending with `\n`.
///
/// A value's backslashes, tabs, line feeds and carriage returns are written `\\`, `\t`, `\n` and
/// `\r`, the text format of PostgreSQL's `COPY` and of MySQL, so that every line is one record
/// and every tab separates two fields: `awk -F'\t'` and `cut -f` split it safely. A missing value
/// is an empty field; an object or array is compact JSON. To a terminal, control characters are
/// also written out (`\x1b`, see `TerminalText.escaped`).
final class TSVWriter: RecordWriter {
    private let columns: [String]
    private let sink: OutputSink
    private let forTerminal: Bool
    private var wroteHeader = false

    /// A writer of rows with `columns` into `sink`; `forTerminal` when the sink is a terminal.
    init(columns: [String], sink: OutputSink, forTerminal: Bool = false) {
        self.columns = columns
        self.sink = sink
        self.forTerminal = forTerminal
    }

    func write(_ record: Record) throws {
        let row = columns.map { field(record.value(at: $0)?.cellText ?? "") }
        try sink.write(header() + row.joined(separator: "\t") + "\n")
    }

    func finish() throws {
        try sink.write(header())
        try sink.flush()
    }

    /// The header row the first time, then nothing.
    private func header() -> String {
        guard !wroteHeader else { return "" }
        wroteHeader = true
        return columns.map(field).joined(separator: "\t") + "\n"
    }

    private func field(_ value: String) -> String {
        let escaped = Self.escaped(value)
        return forTerminal ? TerminalText.escaped(escaped) : escaped
    }

    /// `value` as one TSV field: `\`, tab, line feed and carriage return escaped.
    static func escaped(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { "\\\t\n\r".unicodeScalars.contains($0) }) else { return value }
        var text = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\t": text += "\\t"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
