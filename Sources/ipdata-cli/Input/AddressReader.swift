import Foundation

/// Which CSV column holds the addresses: `--column NAME|N`.
enum ColumnSelection: Equatable, Sendable {
    /// A position counted from 0 (`--column 1` is 0). Every row is an address row.
    case index(Int)
    /// The column with this header (case-insensitive): the first row of each input is its header.
    case name(String)

    /// The first column, with no header row: the default, and what plain lists of addresses need.
    static let first = ColumnSelection.index(0)

    /// Reads the value of `--column`: a number from 1, or a header name.
    init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let number = Int(trimmed) {
            guard number >= 1 else { throw UsageError("--column counts from 1: use 1 for the first column") }
            self = .index(number - 1)
        } else {
            guard !trimmed.isEmpty else { throw UsageError("--column needs a column name or number") }
            self = .name(trimmed)
        }
    }
}

/// The addresses of `ipdata bulk`, read line by line from files and standard input (`-`), in
/// order, without ever holding more than one line of input.
///
/// Blank lines and lines starting with `#` are skipped. Every other line is a CSV record (a plain
/// address is a record of one field) and yields the field of the selected column, trimmed; a row
/// too short for that column yields an empty string, which the lookup reports as not an address.
/// With `.name`, the first row of each input is its header, and an input whose header lacks the
/// name throws a usage error.
struct AddressReader: AsyncSequence, Sendable {
    typealias Element = String

    /// Paths to read in order; `-` is standard input.
    let inputs: [String]
    let column: ColumnSelection

    func makeAsyncIterator() -> Iterator {
        Iterator(inputs: inputs, column: column)
    }

    /// Reads the inputs one after another.
    struct Iterator: AsyncIteratorProtocol {
        private let inputs: [String]
        private let column: ColumnSelection
        private var nextInput = 0
        private var reader: LineReader?
        private var columnIndex: Int?
        private var isFirstLine = true

        init(inputs: [String], column: ColumnSelection) {
            self.inputs = inputs
            self.column = column
        }

        mutating func next() async throws -> String? {
            while true {
                guard let reader = try currentReader() else { return nil }
                guard var line = try await reader.nextLine() else {
                    self.reader = nil
                    continue
                }
                if isFirstLine, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
                isFirstLine = false
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                let fields = try await Self.fields(startingWith: line, trimmed: trimmed, reader: reader)
                guard let index = columnIndex else {
                    columnIndex = try Self.index(of: column, inHeader: fields, of: reader.name)
                    continue
                }
                return index < fields.count ? fields[index] : ""
            }
        }

        /// The reader of the input being read, opening the next input when needed; nil at the end.
        private mutating func currentReader() throws -> LineReader? {
            if let reader { return reader }
            guard nextInput < inputs.count else { return nil }
            let path = inputs[nextInput]
            nextInput += 1
            let reader = path == "-" ? LineReader.standardInput() : try LineReader.file(atPath: path)
            self.reader = reader
            isFirstLine = true
            if case .index(let index) = column { columnIndex = index } else { columnIndex = nil }
            return reader
        }

        /// The trimmed fields of the record that starts with `line` and may go on over the next lines.
        private static func fields(startingWith line: String, trimmed: String, reader: LineReader) async throws
            -> [String]
        {
            // Most lines are a bare address: no need to parse them.
            guard line.contains(where: { $0 == "," || $0 == "\"" }) else { return [trimmed] }
            // Quotes are counted line by line, not over the whole record again, and a row that
            // goes on and on (a closing quote missing) is refused as a line that long would be.
            var record = line
            var isOpen = CSVRecord.isOpen(line)
            let row = "the CSV row on line \(reader.lineNumber - 1) of \(reader.name)"
            while isOpen, let more = try await reader.nextLine() {
                record += "\n" + more
                guard record.utf8.count <= reader.maximumLineLength else {
                    let limit = LineReader.size(reader.maximumLineLength)
                    throw CommandError(.usage, "\(row) goes on past \(limit): is a closing quote missing?")
                }
                if CSVRecord.isOpen(more) { isOpen.toggle() }
            }
            return CSVRecord.fields(record).map { $0.trimmingCharacters(in: .whitespaces) }
        }

        private static func index(of column: ColumnSelection, inHeader header: [String], of name: String) throws
            -> Int
        {
            guard case .name(let wanted) = column else { return 0 }
            guard let index = header.firstIndex(where: { $0.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                throw CommandError(.usage, "\(name) has no column named \(wanted) in its header row")
            }
            return index
        }
    }
}
