/// Reads one CSV record, as RFC 4180 writes them: fields separated by commas (or tabs, for TSV),
/// a field in double quotes may hold separators, line breaks and doubled double quotes (`""`).
enum CSVRecord {
    /// Whether `text` stops inside a quoted field, so the record goes on on the next line.
    static func isOpen(_ text: String) -> Bool {
        text.reduce(into: 0) { count, character in if character == "\"" { count += 1 } } % 2 == 1
    }

    /// The fields of one record, unquoted.
    static func fields(_ text: String, separator: Character = ",") -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = text.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            if quoted {
                if character != "\"" {
                    field.append(character)
                } else if pending == "\"" {
                    field.append("\"")
                    pending = characters.next()
                } else {
                    quoted = false
                }
            } else if character == "\"" {
                quoted = true
            } else if character == separator {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}

extension CSVRecord {
    /// Where a reading of a record's bytes stands, as RFC 4180 and Python's `csv` module read
    /// them: a double quote opens a quoted field only at the start of a field (elsewhere it is an
    /// ordinary byte), and inside one a doubled double quote is one double quote, while a
    /// separator or a line break is part of the field.
    enum Position: Equatable {
        /// At the start of a field: nothing of it read yet.
        case fieldStart
        /// In a field that is not quoted.
        case unquoted
        /// In a quoted field, before its closing quote.
        case quoted
        /// Just after a double quote in a quoted field: its end, or the first of two.
        case quoteInQuoted

        /// The position after `byte`, in a record separated by `separator`; a line feed outside
        /// a quoted field ends the record (and the position goes back to `fieldStart`).
        func after(_ byte: UInt8, separator: UInt8) -> Position {
            switch self {
            case .fieldStart:
                if byte == quote { return .quoted }
                return byte == separator || byte == lineFeed ? .fieldStart : .unquoted
            case .unquoted:
                return byte == separator || byte == lineFeed ? .fieldStart : .unquoted
            case .quoted:
                return byte == quote ? .quoteInQuoted : .quoted
            case .quoteInQuoted:
                if byte == quote { return .quoted }
                return byte == separator || byte == lineFeed ? .fieldStart : .unquoted
            }
        }
    }

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")

    /// The fields of one record's bytes (without its line end), unquoted, as Python's `csv`
    /// module reads them.
    static func fields(_ bytes: some Collection<UInt8>, separator: UInt8) -> [[UInt8]] {
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var position = Position.fieldStart
        for byte in bytes {
            let next = position.after(byte, separator: separator)
            switch (position, next) {
            case (.fieldStart, .quoted), (.quoted, .quoteInQuoted):
                break
            case (_, .fieldStart) where byte == separator && position != .quoted:
                fields.append(field)
                field = []
            default:
                field.append(byte)
            }
            position = next
        }
        fields.append(field)
        return fields
    }
}
