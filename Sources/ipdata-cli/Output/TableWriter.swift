/// Writes records as aligned columns under a header, for reading in a terminal.
///
/// The column widths come from the header and the first 100 rows, which are held back until
/// then; later rows are padded to those widths (a longer value pushes its row out), so memory
/// stays bounded however many records there are. Control characters in values are written out
/// (`\x1b`), line breaks and tabs become spaces.
final class TableWriter: RecordWriter {
    /// How many rows set the column widths.
    static let alignmentRows = 100

    private let columns: [String]
    private let sink: OutputSink
    private var heldBack: [[String]] = []
    private var widths: [Int]?

    init(columns: [String], sink: OutputSink) {
        self.columns = columns
        self.sink = sink
    }

    func write(_ record: Record) throws {
        let row = columns.map { Self.cell(record.value(at: $0)?.cellText ?? "") }
        guard let widths else {
            heldBack.append(row)
            if heldBack.count >= Self.alignmentRows { try flush() }
            return
        }
        try sink.write(Self.line(row, widths: widths))
    }

    func finish() throws {
        if widths == nil { try flush() }
    }

    private func flush() throws {
        let rows = [columns.map(Self.cell)] + heldBack
        let widths = columns.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        self.widths = widths
        heldBack = []
        try sink.write(rows.map { Self.line($0, widths: widths) }.joined())
    }

    /// A value on one line, safe for a terminal: line breaks and tabs become spaces, control
    /// characters are written out.
    private static func cell(_ text: String) -> String {
        TerminalText.escaped(String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }))
    }

    private static func line(_ row: [String], widths: [Int]) -> String {
        var text = ""
        for (index, cell) in row.enumerated() {
            if index > 0 { text += "  " }
            text += cell
            if index < row.count - 1 { text += String(repeating: " ", count: max(0, widths[index] - cell.count)) }
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }
}
