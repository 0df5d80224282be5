/// Writes records as aligned columns under a header, for reading in a terminal.
///
/// The column widths come from the header and the first 100 rows, which are held back until
/// then, so memory stays bounded however many records there are. Widths are counted in terminal
/// columns (a CJK character or an emoji flag takes two), and the table is fitted to `width`
/// (the terminal's, see `Terminal.width`).
///
/// Without `--fields` (`priority` given), the table shows fewer columns rather than cut ones:
/// it keeps the columns whose values fit whole, taken in `priority` order, and leaves out the
/// others, which `leftOut` names for the one line on standard error. The columns the user chose
/// (`priority` nil) are all kept: when they do not fit side by side, the widest are narrowed
/// (see `fit(headers:values:into:)`) and a value longer than its column is cut with `…`, which
/// `cut` says once.
///
/// A failed lookup's `error` is no column: its row shows the address, then the whole error across
/// the cells it has no values for, on more lines when it must. Control characters in values are
/// written out (`\x1b`), line breaks and tabs become spaces.
final class TableWriter: RecordWriter {
    /// How many rows set the column widths.
    static let alignmentRows = 100
    /// The narrowest a column is made to fit the table (narrower ones keep their width).
    static let minimumColumnWidth = 5
    /// The spaces between two columns.
    private static let gap = "  "
    /// The least room beside a row's values for its error; with less, the error goes below them.
    static let minimumErrorWidth = 20
    /// How far an error below its row's values is indented.
    private static let errorIndent = 2

    /// What the table tells the person reading it, on standard error.
    enum Notice: Equatable {
        /// Columns left out (their paths, in the order they would have been shown) to fit `width`.
        case leftOut([String], width: Int)
        /// A value was cut to fit `width`.
        case cut(width: Int)

        /// The line to print.
        var message: String {
            switch self {
            case .leftOut(let columns, let width):
                return "table: left out \(columns.joined(separator: ", ")) to fit \(width) columns "
                    + "(add them with -f, or use --format csv)"
            case .cut(let width):
                return "table: values cut to fit \(width) columns (fewer -f fields, or --format csv)"
            }
        }
    }

    private let columns: [String]
    private let sink: OutputSink
    private let width: Int
    private let priority: [String]?
    private let notify: (Notice) -> Void
    private var heldBack: [[String]] = []
    /// The columns shown (indices into `columns`) and their widths, once the first rows set them.
    private var layout: (shown: [Int], widths: [Int])?
    private var saidCut = false
    /// The index of the `error` column, if the table has one.
    private let errorIndex: Int?

    /// - Parameters:
    ///   - width: The terminal columns the lines must fit in.
    ///   - priority: The columns to keep first when not all fit, for a table of default columns;
    ///     nil when the user chose the columns, which are then all shown.
    ///   - notify: Told what was left out or cut (once each).
    init(
        columns: [String], sink: OutputSink, width: Int, priority: [String]? = nil,
        notify: @escaping (Notice) -> Void = { _ in }
    ) {
        self.columns = columns
        self.sink = sink
        self.width = width
        self.priority = priority
        self.notify = notify
        self.errorIndex = columns.firstIndex(of: Columns.error)
    }

    func write(_ record: Record) throws {
        let row = columns.map { Self.cell(record.value(at: $0)?.cellText ?? "") }
        guard let layout else {
            heldBack.append(row)
            if heldBack.count >= Self.alignmentRows { try flush() }
            return
        }
        try sink.write(line(row, layout: layout))
    }

    func finish() throws {
        if layout == nil { try flush() }
        try sink.flush()
    }

    private func flush() throws {
        let header = columns.map(Self.cell)
        let candidates = columns.indices.filter { $0 != errorIndex }
        let headerWidths = candidates.map { TerminalText.width(header[$0]) }
        let valueWidths = candidates.map { column in heldBack.map { TerminalText.width($0[column]) }.max() ?? 0 }
        let layout: (shown: [Int], widths: [Int])
        if let priority {
            let natural = zip(headerWidths, valueWidths).map { max($0, $1) }
            let rank = { (index: Int) in priority.firstIndex(of: self.columns[index]) ?? priority.count + index }
            let order = candidates.indices.sorted { rank(candidates[$0]) < rank(candidates[$1]) }
            var kept: Set<Int> = []
            var used = 0
            for position in order {
                let needed = natural[position] + (kept.isEmpty ? 0 : Self.gap.count)
                if kept.isEmpty || used + needed <= width {
                    kept.insert(position)
                    used += needed
                }
            }
            let shown = candidates.indices.filter(kept.contains)
            layout = (shown.map { candidates[$0] }, shown.map { min(natural[$0], width) })
            let leftOut = candidates.indices.filter { !kept.contains($0) }.map { columns[candidates[$0]] }
            if !leftOut.isEmpty { notify(.leftOut(leftOut, width: width)) }
        } else {
            layout = (candidates, Self.fit(headers: headerWidths, values: valueWidths, into: width))
        }
        self.layout = layout
        var headerRow = header
        if let errorIndex { headerRow[errorIndex] = "" }
        let rows = [headerRow] + heldBack
        heldBack = []
        try sink.write(rows.map { line($0, layout: layout) }.joined())
    }

    /// The column widths for a line of `width` columns, from the widths of each column's header
    /// and of its widest value.
    ///
    /// When the columns do not fit side by side, the widest are narrowed to one cap, the largest
    /// that fits. A header longer than its values is cut to them first (to no fewer than
    /// `minimumColumnWidth` columns), and the first column, which names the row, keeps its values
    /// whole when they take at most half the width and the others fit beside it. Room left over goes back to the narrowed
    /// columns, from the left, to values before headers. When even that does not fit, the lines
    /// are cut at `width`.
    static func fit(headers: [Int], values: [Int], into width: Int) -> [Int] {
        let natural = zip(headers, values).map { max($0, $1) }
        let room = width - gap.count * max(0, natural.count - 1)
        guard natural.reduce(0, +) > room, let widest = natural.max() else { return natural }
        var keepsFirst = values[0] <= width / 2
        func widths(cap: Int) -> [Int] {
            natural.indices.map { index in
                guard natural[index] > cap else { return natural[index] }
                let narrowed = max(min(values[index], cap), min(natural[index], minimumColumnWidth))
                return index == 0 && keepsFirst ? max(narrowed, values[index]) : narrowed
            }
        }
        // Every column shown, if narrowing the first one too is what it takes.
        if keepsFirst, widths(cap: 0).reduce(0, +) > room { keepsFirst = false }
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
    /// the whole cut to `width` when even the narrowest columns do not fit. A row with an error
    /// shows it after its last value, across the cells it has no values for, on as many lines as
    /// it takes (each starting under its first), so that it is never cut.
    private func line(_ row: [String], layout: (shown: [Int], widths: [Int])) -> String {
        var cells = layout.shown.map { row[$0] }
        var error: String?
        if let errorIndex, !row[errorIndex].isEmpty {
            cells = Array(cells[...(cells.lastIndex { !$0.isEmpty } ?? 0)])
            error = row[errorIndex]
        }
        var text = ""
        var used = 0
        var cut = false
        for (index, cell) in cells.enumerated() {
            if index > 0 {
                text += Self.gap
                used += Self.gap.count
            }
            let isLast = index == cells.count - 1 && error == nil
            let room = isLast ? max(layout.widths[index], width - used) : layout.widths[index]
            let shown = TerminalText.truncated(cell, toWidth: room)
            cut = cut || shown != cell
            text += shown
            let shownWidth = TerminalText.width(shown)
            if !isLast { text += String(repeating: " ", count: max(0, layout.widths[index] - shownWidth)) }
            used += isLast ? shownWidth : max(layout.widths[index], shownWidth)
        }
        if error == nil {
            while text.hasSuffix(" ") { text.removeLast() }
        }
        let fitted = TerminalText.truncated(text, toWidth: width)
        if cut || fitted != text, !saidCut {
            saidCut = true
            notify(.cut(width: width))
        }
        guard let error else { return fitted + "\n" }
        // The last value was padded to its column: the error starts where the next column would.
        let start = TerminalText.width(fitted) + Self.gap.count
        // Too little room beside the values: the error goes below them, indented.
        if start + Self.minimumErrorWidth > width {
            let indent = String(repeating: " ", count: Self.errorIndent)
            let lines = TerminalText.wrapped(
                error, firstWidth: width - Self.errorIndent, width: width - Self.errorIndent, breaksWords: true)
            var values = fitted
            while values.hasSuffix(" ") { values.removeLast() }
            return values + "\n" + lines.map { indent + $0 + "\n" }.joined()
        }
        let lines = TerminalText.wrapped(error, firstWidth: width - start, width: width - start, breaksWords: true)
        let indent = String(repeating: " ", count: start)
        return fitted + Self.gap + lines[0] + "\n" + lines.dropFirst().map { indent + $0 + "\n" }.joined()
    }
}
