/// Writes records as a GitHub-flavoured Markdown table, for a ticket or a chat: a header row of
/// the column paths, the delimiter row, then one row per record, as records arrive.
///
/// A value stays on its row and in its cell: line breaks become `<br>`, and the characters
/// Markdown would read as markup or as a cell's end (`|`, `\`, `*`, `_` but inside a word, `` ` ``,
/// `<`, `>`, `[`, `]`, `~`, `&`) get a backslash, so that the table shows each value as it is. Control
/// characters are written out (`\x1b`, see `TerminalText.escaped`): a ticket has no use for them.
final class MarkdownWriter: RecordWriter {
    private let columns: [String]
    private let sink: OutputSink
    private var wroteHeader = false

    init(columns: [String], sink: OutputSink) {
        self.columns = columns
        self.sink = sink
    }

    func write(_ record: Record) throws {
        try sink.write(header() + Self.row(columns.map { record.value(at: $0)?.cellText ?? "" }))
    }

    func finish() throws {
        try sink.write(header())
        try sink.flush()
    }

    /// The header and delimiter rows the first time, then nothing.
    private func header() -> String {
        guard !wroteHeader else { return "" }
        wroteHeader = true
        return Self.row(columns) + "|" + columns.map { _ in " --- |" }.joined() + "\n"
    }

    private static func row(_ values: [String]) -> String {
        "|" + values.map { " " + cell($0) + " |" }.joined() + "\n"
    }

    /// `value` as one cell's Markdown: its lines joined by `<br>`, markup characters escaped.
    static func cell(_ value: String) -> String {
        var lines: [String] = []
        var line = ""
        for character in value {
            if character.isNewline {
                lines.append(line)
                line = ""
            } else {
                line.append(character)
            }
        }
        lines.append(line)
        return lines.map { escapedMarkup(TerminalText.escaped($0)) }.joined(separator: "<br>")
    }

    /// `text` with a backslash before each markup character. An `_` between two letters or
    /// digits (`threat.is_tor`) is left as it is: GitHub reads no emphasis there.
    private static func escapedMarkup(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var escaped = ""
        func isLetterOrDigit(_ index: Int) -> Bool {
            scalars.indices.contains(index)
                && (scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]))
        }
        for (index, scalar) in scalars.enumerated() {
            let isInsideWord = scalar == "_" && isLetterOrDigit(index - 1) && isLetterOrDigit(index + 1)
            if "|\\*_`<>[]~&".unicodeScalars.contains(scalar), !isInsideWord { escaped += "\\" }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }
}
