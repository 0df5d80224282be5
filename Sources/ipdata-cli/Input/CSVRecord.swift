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
