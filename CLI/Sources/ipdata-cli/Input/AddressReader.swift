import CLILibC
import Foundation
import IPData

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
/// order, without ever holding more than one line of input (a few for a CSV field that spans
/// lines).
///
/// Every line is accounted for. Blank lines and lines starting with `#` are skipped. Every other
/// line yields one address: the field of the selected column, trimmed (a plain address is a
/// record of one field; a line with a tab and no comma is split at tabs). A field that is a range
/// (`8.8.8.0/29`, `8.8.8.1-8.8.8.6`; see `AddressRange`) yields each of its addresses, or, when it
/// holds more than `maximumRangeAddresses`, its text, with the reason in the ledger. An address in
/// `skipped` (answered by the run `--resume` continues) is passed over. A line that is no
/// address still yields its text, which the lookup reports as not an address; when the reader can
/// tell why (an unbalanced quote, a row too short for the column), it says so in the ledger.
///
/// The first row of each input is a header, skipped, when the column is chosen by name (it must
/// hold the name), or when it has several fields, none of them an address, and the selected one
/// is a word (`ip`, `address`). A column past the end of an input's first row is a usage error.
/// A quoted field may go on over the next lines only with `csv` (`--column` given), at most
/// `maximumRecordLines` of them; otherwise, and past that, a line with an unbalanced quote is
/// one address of its own, so a stray quote cannot swallow the rest of the input.
struct AddressReader: AsyncSequence, Sendable {
    typealias Element = String

    /// The most lines one CSV record may span.
    static let maximumRecordLines = 10

    /// Paths to read in order; `-` is standard input.
    let inputs: [String]
    let column: ColumnSelection
    /// Whether the inputs are CSV files (`--column` given), whose quoted fields may span lines.
    var csv = false
    /// Where the origin of each address goes, and the run's stop; nil for a pass that only counts.
    var ledger: InputLedger?
    /// The most addresses one range (`8.8.8.0/29`, `8.8.8.1-8.8.8.6`) may stand for; a larger one
    /// is a failed record, and nothing of it is looked up.
    var maximumRangeAddresses = AddressReader.defaultMaximumRangeAddresses

    /// Addresses (canonical) not to hand out: those an earlier run answered (`--resume`).
    var skipped: Set<String> = []
    /// Told of each address passed over for `skipped` (its canonical form), as it is read.
    var onSkip: (@Sendable (String) -> Void)?
    /// Resolves the fields that are host names (see `HostName`) to their addresses, each of which
    /// is handed out with the name in its origin; nil: a name is no address, as any other text.
    /// A name that does not resolve is handed out as it is, with the resolver's message as the
    /// ledger's problem, so that its record is an error and nothing is sent for it.
    var resolver: HostResolver?

    /// How many lines the reader looks ahead, among those already read from the input, to start
    /// resolving their names while it waits for one.
    static let namesReadAhead = 16

    /// `--max-addresses`'s default: a /24.
    static let defaultMaximumRangeAddresses = 256

    /// `text` without the white space around it (`CharacterSet.whitespaces`: tabs and Unicode's
    /// space separators); at once, without Foundation, when it starts and ends with an ASCII
    /// character other than a space or a tab, as an address does.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        func isPlain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && byte != 0x09 }
        if isPlain(first), isPlain(last) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: self)
    }

    /// Reads the inputs one after another.
    struct Iterator: AsyncIteratorProtocol {
        private let inputs: [String]
        private let column: ColumnSelection
        private let csv: Bool
        private let ledger: InputLedger?
        private var nextInput = 0
        private var reader: LineReader?
        /// Lines read ahead for a record that turned out not to span them.
        private var pushedBack: [(number: Int, text: String)] = []
        private var lineNumber = 0
        private var columnIndex: Int?
        private var isFirstLine = true
        private var isFirstRow = true
        private var separator: Character = ","
        private let maximumRangeAddresses: Int
        private let skipped: Set<String>
        private let onSkip: (@Sendable (String) -> Void)?
        private let resolver: HostResolver?
        /// The addresses of a range still to be handed out, and the line they come from.
        private var range: (addresses: AnyIterator<String>, origin: InputLedger.Origin)?

        init(reader: AddressReader) {
            self.inputs = reader.inputs
            self.column = reader.column
            self.csv = reader.csv
            self.ledger = reader.ledger
            self.maximumRangeAddresses = reader.maximumRangeAddresses
            self.skipped = reader.skipped
            self.onSkip = reader.onSkip
            self.resolver = reader.resolver
        }

        mutating func next() async throws -> String? {
            if let ledger, ledger.isStopped {
                if ledger.unread == .unknown { ledger.unread = try await countUnread() }
                return nil
            }
            while let reader = try currentReader() {
                if let range {
                    guard let address = range.addresses.next() else {
                        self.range = nil
                        continue
                    }
                    if let address = admit(address, from: range.origin) { return address }
                    continue
                }
                guard let (number, rawLine) = try await nextLine(from: reader) else {
                    self.reader = nil
                    continue
                }
                var line = rawLine
                if isFirstLine, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
                isFirstLine = false
                let trimmed = AddressReader.trimmed(line)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                if isFirstRow { separator = line.contains("\t") && !line.contains(",") ? "\t" : "," }
                let (fields, problem) = try await record(startingWith: line, number: number, from: reader)
                let inputIndex = nextInput - 1
                let origin = { (problem: String?) in
                    InputLedger.Origin(input: reader.name, inputIndex: inputIndex, line: number, problem: problem)
                }
                if let problem {
                    ledger?.append(origin(problem))
                    return trimmed
                }
                if isFirstRow {
                    isFirstRow = false
                    if try isHeader(fields, line: number, of: reader.name) { continue }
                }
                let index = columnIndex ?? 0
                guard index < fields.count else {
                    ledger?.append(origin("line \(number) of \(reader.name) has no column \(index + 1)"))
                    return trimmed
                }
                let address = fields[index]
                if let range = AddressRange(address) {
                    if let problem = range.problem(maximum: maximumRangeAddresses) {
                        ledger?.append(origin(problem))
                        return address
                    }
                    self.range = (range.makeIterator(), origin(nil))
                    continue
                }
                if let resolver, HostName.isHostName(address) {
                    try readAheadForNames(from: reader, resolver: resolver)
                    var entry = origin(nil)
                    entry.host = address
                    switch await resolver.resolve(address) {
                    case .addresses(let addresses):
                        self.range = (AnyIterator(addresses.makeIterator()), entry)
                        continue
                    case .failed(let message):
                        ledger?.append(
                            InputLedger.Origin(
                                input: entry.input, inputIndex: inputIndex, line: number, problem: message,
                                host: address))
                        return address
                    }
                }
                if let address = admit(address, from: origin(nil)) { return address }
            }
            if let ledger, ledger.unread == .unknown { ledger.unread = .counted(0) }
            return nil
        }

        /// `address`, from `origin`, entered in the ledger; nil for an address read before, which
        /// is not sent again (its record repeats the earlier answer).
        private func admit(_ address: String, from origin: InputLedger.Origin) -> String? {
            // Answered by an earlier run whose output this one continues: no record, no request.
            if !skipped.isEmpty, let key = IPAddress(address)?.description, skipped.contains(key) {
                onSkip?(key)
                return nil
            }
            guard let ledger else { return address }
            var entry = origin
            entry.key = IPAddress(address)?.description
            if let key = entry.key, ledger.admit(key) {
                entry.isDuplicate = true
                ledger.append(entry)
                return nil
            }
            ledger.append(entry)
            return address
        }

        /// Starts resolving the names of the next lines that the reader holds already (plain lines,
        /// one field each), keeping those lines to be read next; never waits for more input.
        private mutating func readAheadForNames(from reader: LineReader, resolver: HostResolver) throws {
            while pushedBack.count < AddressReader.namesReadAhead, let line = try reader.bufferedLine() {
                lineNumber += 1
                pushedBack.append((lineNumber, line))
                let field = AddressReader.trimmed(line)
                if HostName.isHostName(field) { resolver.prefetch(field) }
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
            (isFirstLine, isFirstRow, lineNumber, pushedBack) = (true, true, 0, [])
            if case .index(let index) = column { columnIndex = index } else { columnIndex = nil }
            return reader
        }

        private mutating func nextLine(from reader: LineReader) async throws -> (Int, String)? {
            if !pushedBack.isEmpty { return pushedBack.removeFirst() }
            guard let line = try await reader.nextLine() else { return nil }
            lineNumber += 1
            return (lineNumber, line)
        }

        /// The trimmed fields of the record that starts with `line`, or why it is not one.
        private mutating func record(startingWith line: String, number: Int, from reader: LineReader) async throws
            -> (fields: [String], problem: String?)
        {
            // Most lines are a bare address: no need to parse them. Their bytes tell at once when
            // the line holds neither character (both are ASCII: their byte is in any line that does).
            let separatorByte = separator.asciiValue ?? 0
            guard line.utf8.contains(where: { $0 == separatorByte || $0 == UInt8(ascii: "\"") }),
                line.contains(where: { $0 == separator || $0 == "\"" })
            else {
                return ([AddressReader.trimmed(line)], nil)
            }
            var record = line
            if CSVRecord.isOpen(record) {
                var following: [(Int, String)] = []
                // Quotes are counted line by line, not over the whole record again.
                var isOpen = true
                while csv, isOpen, following.count < AddressReader.maximumRecordLines - 1,
                    let more = try await nextLine(from: reader)
                {
                    following.append(more)
                    record += "\n" + more.1
                    if CSVRecord.isOpen(more.1) { isOpen.toggle() }
                }
                guard !isOpen else {
                    // No closing quote in reach: this line alone, and the next lines read again.
                    pushedBack = following + pushedBack
                    return ([], "line \(number) of \(reader.name) has an unbalanced quote")
                }
            }
            return (CSVRecord.fields(record, separator: separator).map { AddressReader.trimmed($0) }, nil)
        }

        /// Whether the first row of an input is a header; sets the column for `.name`.
        private mutating func isHeader(_ fields: [String], line: Int, of name: String) throws -> Bool {
            switch column {
            case .name(let wanted):
                guard let index = fields.firstIndex(where: { $0.caseInsensitiveCompare(wanted) == .orderedSame })
                else {
                    throw CommandError(.usage, "\(name) has no column named \(wanted) in its header row")
                }
                columnIndex = index
                return true
            case .index(let index):
                guard index < fields.count else {
                    throw CommandError(
                        .usage,
                        "--column \(index + 1) is past the end of line \(line) of \(name), which has "
                            + "\(fields.count == 1 ? "1 column" : "\(fields.count) columns")")
                }
                let selected = fields[index]
                return fields.count > 1 && !fields.contains(where: { IPAddress($0) != nil })
                    && selected.first?.isLetter == true && !selected.contains(where: { $0 == "." || $0 == ":" })
            }
        }

        /// After a stop: how many addresses the inputs still hold, read to their ends, unless one
        /// of them is a pipe or a terminal, which may never end.
        private mutating func countUnread() async throws -> InputLedger.Unread {
            let rest = Array(inputs[(reader == nil ? nextInput : nextInput - 1)...])
            guard rest.allSatisfy({ $0 != "-" || Self.standardInputIsAFile() }) else { return .uncounted }
            var count = 0
            while let reader = try currentReader() {
                guard let (_, line) = try await nextLine(from: reader) else {
                    self.reader = nil
                    continue
                }
                let trimmed = AddressReader.trimmed(line)
                if !trimmed.isEmpty, !trimmed.hasPrefix("#") { count += 1 }
            }
            return .counted(count)
        }

        private static func standardInputIsAFile() -> Bool {
            var status = stat()
            return fstat(STDIN_FILENO, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }
    }
}
