/// How a line ends in the input: the bytes written after it, kept as they were.
enum LineEnd: Equatable, Sendable {
    case lineFeed
    case carriageReturnLineFeed
    /// The last line of an input that does not end with a line break.
    case none

    var bytes: [UInt8] {
        switch self {
        case .lineFeed: return [0x0A]
        case .carriageReturnLineFeed: return [0x0D, 0x0A]
        case .none: return []
        }
    }
}

/// One record of an input as it came: a line, or a CSV or TSV record whose quoted fields hold
/// line breaks.
struct InputRecord: Sendable {
    /// Its bytes, without its line end (those of the line breaks inside quoted fields included).
    let bytes: [UInt8]
    let lineEnd: LineEnd
    /// The number of the line it starts on, from 1.
    let lineNumber: Int
}

/// Reads an input record by record, every byte kept: one line per record, or, for CSV and TSV,
/// records read to their end as RFC 4180 says, however many lines their quoted fields span.
///
/// A record may have at most `maximumLength` bytes (its line end not counted): a longer one, or a
/// quoted field still open at the end of the input (an unbalanced quote), is a usage error
/// naming the line it starts on, so that input that is not what it seems ends the run instead of
/// filling memory or swallowing the rest of the file.
final class RecordReader {
    /// The most bytes a record may have: 1 MiB.
    static let defaultMaximumLength = 1_048_576

    private let lines: LineReader
    /// The separator of a CSV or TSV record's fields; nil when a record is a line.
    private let separator: UInt8?
    let maximumLength: Int
    /// The number of the line the next record starts on.
    private var lineNumber = 1

    /// A reader of `lines`, whose records are CSV or TSV records separated by `separator`, or
    /// lines when it is nil.
    init(lines: LineReader, separator: UInt8?, maximumLength: Int = RecordReader.defaultMaximumLength) {
        self.lines = lines
        self.separator = separator
        self.maximumLength = maximumLength
    }

    /// The input's name for messages: its path, or `standard input`.
    var name: String { lines.name }

    /// The next record, or nil at the end of the input. Throws a usage error (exit status 2) for a
    /// record too long, an unbalanced quote, or input that cannot be read.
    func next() async throws -> InputRecord? {
        let first = lineNumber
        var bytes: [UInt8] = []
        var position = CSVRecord.Position.fieldStart
        // The line of the last quoted field opened: the one still open at the end of a line.
        var quoteLine = first
        while true {
            let line: ArraySlice<UInt8>?
            do {
                line = try await lines.nextLineBytes(atMost: maximumLength - bytes.count)
            } catch is LineReader.LineTooLong {
                throw tooLong(startingOn: first, openQuoteOn: position == .quoted ? quoteLine : nil)
            }
            guard let line else {
                guard bytes.isEmpty else { throw unbalancedQuote(on: quoteLine) }
                return nil
            }
            let number = lineNumber
            lineNumber += 1
            guard let separator else { return Self.record(line, lineNumber: first) }
            for byte in line {
                let next = position.after(byte, separator: separator)
                if next == .quoted, position == .fieldStart { quoteLine = number }
                position = next
            }
            guard position == .quoted else {
                bytes.append(contentsOf: line)
                return Self.record(bytes[...], lineNumber: first)
            }
            guard line.last == 0x0A else { throw unbalancedQuote(on: quoteLine) }
            bytes.append(contentsOf: line)
        }
    }

    /// `line` split into its bytes and its line end.
    private static func record(_ line: ArraySlice<UInt8>, lineNumber: Int) -> InputRecord {
        var bytes = line
        var end = LineEnd.none
        if bytes.last == 0x0A {
            bytes.removeLast()
            end = .lineFeed
            if bytes.last == 0x0D {
                bytes.removeLast()
                end = .carriageReturnLineFeed
            }
        }
        return InputRecord(bytes: Array(bytes), lineEnd: end, lineNumber: lineNumber)
    }

    private func tooLong(startingOn line: Int, openQuoteOn quoteLine: Int?) -> CommandError {
        let limit = LineReader.size(maximumLength)
        let what = separator == nil ? "is longer than \(limit)" : "starts a record longer than \(limit)"
        let hint = quoteLine.map { "; the quoted field that opens on line \($0) may lack its closing quote" } ?? ""
        return CommandError(.usage, "line \(line) of \(name) \(what), the most enrich reads\(hint)")
    }

    private func unbalancedQuote(on line: Int) -> CommandError {
        CommandError(
            .usage, "line \(line) of \(name) has an unbalanced quote: its quoted field runs to the end of the input")
    }
}
