/// Writes records as aligned columns under a header, for reading in a terminal.
///
/// The column widths come from the header and the first 100 rows, which are held back until
/// then, so memory stays bounded however many records there are. Widths are counted in terminal
/// columns (a CJK character or an emoji flag takes two), and the table is fitted to `width`
/// (the terminal's, see `Terminal.width`): when the columns are too wide together, the widest
/// are narrowed until the lines fit (see `fit(headers:values:into:)`), and a value longer than
/// its column is cut with `…`. The last column may use whatever room its line has left. Control characters in values are
/// written out (`\x1b`), line breaks and tabs become spaces.
final class TableWriter: RecordWriter {
    /// How many rows set the column widths.
    static let alignmentRows = 100
    /// The narrowest a column is made to fit the table (narrower ones keep their width).
    static let minimumColumnWidth = 5
    /// The spaces between two columns.
    private static let gap = "  "

    private let columns: [String]
    private let sink: OutputSink
    private let width: Int
    private var heldBack: [[String]] = []
    private var widths: [Int]?

    /// - Parameter width: The terminal columns the lines must fit in.
    init(columns: [String], sink: OutputSink, width: Int) {
        self.columns = columns
        self.sink = sink
        self.width = width
    }

    func write(_ record: Record) throws {
        let row = columns.map { Self.cell(record.value(at: $0)?.cellText ?? "") }
        guard let widths else {
            heldBack.append(row)
            if heldBack.count >= Self.alignmentRows { try flush() }
            return
        }
        try sink.write(line(row, widths: widths))
    }

    func finish() throws {
        if widths == nil { try flush() }
        try sink.flush()
    }

    private func flush() throws {
        let header = columns.map(Self.cell)
        let headerWidths = header.map { TerminalText.width($0) }
        let valueWidths = columns.indices.map { column in heldBack.map { TerminalText.width($0[column]) }.max() ?? 0 }
        let widths = Self.fit(headers: headerWidths, values: valueWidths, into: width)
        self.widths = widths
        let rows = [header] + heldBack
        heldBack = []
        try sink.write(rows.map { line($0, widths: widths) }.joined())
    }

    /// The column widths for a line of `width` columns, from the widths of each column's header
    /// and of its widest value.
    ///
    /// When the columns do not fit side by side, the widest are narrowed to one cap, the largest
    /// that fits. A header longer than its values is cut to them first (to no fewer than
    /// `minimumColumnWidth` columns), and the first column, which names the row, keeps its values
    /// whole when they take at most half the width. Room left over goes back to the narrowed
    /// columns, from the left, to values before headers. When even that does not fit, the lines
    /// are cut at `width`.
    static func fit(headers: [Int], values: [Int], into width: Int) -> [Int] {
        let natural = zip(headers, values).map { max($0, $1) }
        let room = width - gap.count * max(0, natural.count - 1)
        guard natural.reduce(0, +) > room, let widest = natural.max() else { return natural }
        let keepsFirst = values[0] <= width / 2
        func widths(cap: Int) -> [Int] {
            natural.indices.map { index in
                guard natural[index] > cap else { return natural[index] }
                let narrowed = max(min(values[index], cap), min(natural[index], minimumColumnWidth))
                return index == 0 && keepsFirst ? max(narrowed, values[index]) : narrowed
            }
        }
        var cap = widest
        while cap > 0, widths(cap: cap).reduce(0, +) > room { cap -= 1 }
        var fitted = widths(cap: cap)
        var left = room - fitted.reduce(0, +)
        // One column each, from the left, round after round: to cut values first, then to headers.
        for wanted in [values, natural] {
            while left > 0, fitted.indices.contains(where: { fitted[$0] < wanted[$0] }) {
                for index in fitted.indices where left > 0 && fitted[index] < wanted[index] {
                    fitted[index] += 1
                    left -= 1
                }
            }
        }
        return fitted
    }

    /// A value on one line, safe for a terminal: line breaks and tabs become spaces, control
    /// characters are written out.
    private static func cell(_ text: String) -> String {
        TerminalText.escaped(String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }))
    }

    /// One row: each cell cut to its column and padded to it, the last cut to the room left, and
    /// the whole cut to `width` when even the narrowest columns do not fit.
    private func line(_ row: [String], widths: [Int]) -> String {
        var text = ""
        var used = 0
        for (index, cell) in row.enumerated() {
            if index > 0 {
                text += Self.gap
                used += Self.gap.count
            }
            let isLast = index == row.count - 1
            let shown = TerminalText.truncated(cell, toWidth: isLast ? max(widths[index], width - used) : widths[index])
            text += shown
            let shownWidth = TerminalText.width(shown)
            if !isLast { text += String(repeating: " ", count: max(0, widths[index] - shownWidth)) }
            used += isLast ? shownWidth : max(widths[index], shownWidth)
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return TerminalText.truncated(text, toWidth: width) + "\n"
    }
}
