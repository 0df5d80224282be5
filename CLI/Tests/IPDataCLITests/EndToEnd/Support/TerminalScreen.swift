// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
@testable import ipdata_cli

/// What a terminal `columns` wide shows after some output: the few things a terminal does with
/// what `ipdata` writes (carriage return, line feed, erase to the end of the line, wrapping at
/// the last column), so that a test can check what a person would see.
///
/// A character takes the columns `TerminalText.width` gives it; a wide one that does not fit at
/// the end of a line wraps, as in xterm. Other escape sequences are skipped.
struct TerminalScreen {
    let columns: Int
    /// The lines, as cells: a wide character fills its first cell, and its second holds nil.
    private(set) var cells: [[Character?]] = [[]]
    /// How many times output ran past the last column and went on on the next line.
    private(set) var wraps = 0
    private var row = 0
    private var column = 0

    /// A screen that has shown `output`.
    init(columns: Int, showing output: String) {
        self.columns = columns
        var characters = output.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\r\n", "\n": newLine()
            case "\r": column = 0
            case "\u{1B}": escape(&characters)
            default: put(character)
            }
        }
    }

    /// The lines as text, without trailing spaces and without the empty last line.
    var lines: [String] {
        var lines = cells.map { line in
            var text = String(line.compactMap { $0 })
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The column at which `text` starts on line `line`, or nil.
    func column(of text: String, onLine line: Int) -> Int? {
        let cells = self.cells[line]
        let target = Array(text)
        for start in cells.indices where cells[start] != nil {
            let shown = cells[start...].compactMap { $0 }
            if shown.starts(with: target) { return start }
        }
        return nil
    }

    private mutating func newLine() {
        row += 1
        column = 0
        if row == cells.count { cells.append([]) }
    }

    private mutating func put(_ character: Character) {
        let width = TerminalText.width(of: character)
        guard width > 0 else { return }
        if column + width > columns {
            wraps += 1
            newLine()
        }
        while cells[row].count < column + width { cells[row].append(" ") }
        cells[row][column] = character
        if width == 2 { cells[row][column + 1] = nil }
        column += width
    }

    /// A control sequence: `ESC [ … K` erases to the end of the line; others are skipped.
    private mutating func escape(_ characters: inout String.Iterator) {
        guard characters.next() == "[" else { return }
        while let next = characters.next() {
            guard let scalar = next.unicodeScalars.first, !(0x40...0x7E).contains(scalar.value) else {
                if next == "K", cells[row].count > column { cells[row].removeSubrange(column...) }
                return
            }
        }
    }
}
#endif
