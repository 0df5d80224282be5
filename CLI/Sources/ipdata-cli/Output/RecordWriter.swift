import Foundation

/// Prints records one at a time, as they arrive, in one output format.
protocol RecordWriter: AnyObject {
    /// Prints one record.
    func write(_ record: Record) throws
    /// Prints one record that the API sent as `json`: JSON formats print those bytes (see
    /// `RawJSON`), the others the values `record` reads from them. `isCompact` when `json` has
    /// no whitespace between its tokens already (`CompactJSON`: an answer from the disk cache),
    /// so that JSON lines print it as it is.
    func write(json: Data, isCompact: Bool, orRecord record: () throws -> Record) throws
    /// Whether records are printed as JSON, from the bytes the API sent (no values needed).
    var printsJSON: Bool { get }
    /// Prints whatever the format needs at the end (a closing bracket, a table's rows held back
    /// for aligning, a CSV header when there were no records), and writes out what the sink
    /// holds (`OutputSink.flush()`).
    func finish() throws
}

extension RecordWriter {
    func write(json: Data, isCompact: Bool, orRecord record: () throws -> Record) throws {
        try write(record())
    }

    /// Prints one record that the API sent as `json`, as it sent it (whitespace and all).
    func write(json: Data, orRecord record: () throws -> Record) throws {
        try write(json: json, isCompact: false, orRecord: record)
    }

    var printsJSON: Bool { false }
}

/// The writer for `format`; `columns` are the CSV and table columns, `tableWidth` the columns a
/// table is fitted to (by default the terminal's: see `Terminal.width`, standard output first,
/// then standard error, so a table piped to a pager fits the terminal it is read in).
/// `forTerminal` when `sink` is a terminal (see `Terminal.showsOutput(at:)`): control characters
/// in values are then written out in CSV, and kept to JSON's escapes in JSON; a table always
/// writes them out. `tablePriority` is the order in which a table keeps default columns when
/// not all fit (nil: the user chose them, and all are shown), and `tableNotices` is told what a
/// table left out or cut (see `TableWriter`).
func makeRecordWriter(
    format: OutputFormat, shape: RecordShape, columns: [String], sink: OutputSink,
    tableWidth: Int = Terminal.width(of: [1, 2]), forTerminal: Bool = false, tablePriority: [String]? = nil,
    tableNotices: @escaping (TableWriter.Notice) -> Void = { _ in }
) -> RecordWriter {
    switch format {
    case .json: return JSONWriter(style: shape == .single ? .object : .array, sink: sink, forTerminal: forTerminal)
    case .jsonl: return JSONWriter(style: .lines, sink: sink, forTerminal: forTerminal)
    case .csv: return CSVWriter(columns: columns, sink: sink, forTerminal: forTerminal)
    case .tsv: return TSVWriter(columns: columns, sink: sink, forTerminal: forTerminal)
    case .table:
        return TableWriter(
            columns: columns, sink: sink, width: tableWidth, priority: tablePriority, notify: tableNotices)
    case .markdown: return MarkdownWriter(columns: columns, sink: sink)
    }
}
