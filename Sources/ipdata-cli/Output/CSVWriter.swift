import Foundation

/// Writes records as CSV: a header row of the column paths, then one row per record.
///
/// Fields are quoted as RFC 4180 says: a field holding a comma, a double quote or a line break
/// is enclosed in double quotes, with each double quote doubled. Lines end with `\n`.
final class CSVWriter: RecordWriter {
    private let columns: [String]
    private let sink: OutputSink
    private var wroteHeader = false

    init(columns: [String], sink: OutputSink) {
        self.columns = columns
        self.sink = sink
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

    /// One field, quoted when it must be.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
