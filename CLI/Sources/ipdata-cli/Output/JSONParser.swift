import Foundation

/// Reads JSON text (RFC 8259) into a `JSONValue`, strictly.
///
/// Every result is turned into JSON and read back, so this is on the path of every record. It
/// reads any JSON the tool is given (answers, its own records, the lines a user enriches), where
/// a record should not silently lose a value: a byte-order mark, a trailing comma, an invalid
/// escape and a number JSON does not spell (`01`, `+1`, `.5`, `1.2.3`, `1e400`) are errors. The
/// text of a string is repaired rather than refused, as the tool always read it: invalid UTF-8
/// and an unpaired surrogate become U+FFFD, and a control character is kept as it is. Of a
/// repeated key the last value is kept.
///
/// It also reads answers of servers it cannot trust (`--base-url`, a proxy on the way), so
/// arrays and objects nest at most `maximumDepth` deep, and a text of a hundred thousand `[`
/// cannot run the stack out.
struct JSONParser {
    /// How deep arrays and objects may nest: `JSONDecoder`'s and `JSONSerialization`'s limit too,
    /// so an answer the library reads is never refused here. The API's own nest 4 deep at most.
    static let maximumDepth = 512

    /// Text that is not JSON, or nests deeper than `maximumDepth`.
    struct Malformed: Error, CustomStringConvertible {
        /// Where, in bytes from the start.
        let offset: Int
        var isTooDeep = false
        var description: String {
            isTooDeep
                ? "JSON nested more than \(JSONParser.maximumDepth) levels deep (at byte \(offset))"
                : "not valid JSON (at byte \(offset))"
        }
    }

    /// The value `data` holds; throws `Malformed` unless it is one JSON value and nothing else.
    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(text: raw.bindMemory(to: UInt8.self))
            let value = try parser.readValue(depth: 0)
            parser.skipSpace()
            guard parser.position == parser.text.count else { throw Malformed(offset: parser.position) }
            return value
        }
    }

    private let text: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    private var byte: UInt8? {
        position < text.count ? text[position] : nil
    }

    private mutating func skipSpace() {
        while let byte, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    /// Steps past `expected` after any whitespace, or throws where it should have been.
    private mutating func expect(_ expected: UInt8) throws {
        skipSpace()
        guard byte == expected else { throw Malformed(offset: position) }
        position += 1
    }

    private mutating func readValue(depth: Int) throws -> JSONValue {
        skipSpace()
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw Malformed(offset: position, isTooDeep: true) }
            return byte == UInt8(ascii: "{") ? try readObject(depth: depth + 1) : try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readWord("true", meaning: .bool(true))
        case UInt8(ascii: "f"): return try readWord("false", meaning: .bool(false))
        case UInt8(ascii: "n"): return try readWord("null", meaning: .null)
        default: return try readNumber()
        }
    }

    private mutating func readWord(_ word: StaticString, meaning value: JSONValue) throws -> JSONValue {
        let start = position
        let spelled = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard text.count - start >= spelled.count, text[start..<start + spelled.count].elementsEqual(spelled) else {
            throw Malformed(offset: start)
        }
        position += spelled.count
        return value
    }

    private mutating func readObject(depth: Int) throws -> JSONValue {
        position += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if byte == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        repeat {
            skipSpace()
            guard byte == UInt8(ascii: "\"") else { throw Malformed(offset: position) }
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            members[key] = try readValue(depth: depth)
            skipSpace()
        } while try separator(closing: UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func readArray(depth: Int) throws -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if byte == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        repeat {
            elements.append(try readValue(depth: depth))
            skipSpace()
        } while try separator(closing: UInt8(ascii: "]"))
        return .array(elements)
    }

    /// True past a `,` (another member or element follows), false past `closing`; throws on
    /// anything else.
    private mutating func separator(closing: UInt8) throws -> Bool {
        switch byte {
        case UInt8(ascii: ","):
            position += 1
            return true
        case closing:
            position += 1
            return false
        default:
            throw Malformed(offset: position)
        }
    }

    /// The string whose opening quote is at `position`, escapes read and its text repaired.
    private mutating func readString() throws -> String {
        position += 1
        var result = ""
        var runStart = position
        while true {
            guard let byte else { throw Malformed(offset: position) }
            if byte == UInt8(ascii: "\"") {
                result += String(decoding: text[runStart..<position], as: UTF8.self)
                position += 1
                return result
            }
            guard byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            result += String(decoding: text[runStart..<position], as: UTF8.self)
            position += 1
            result.unicodeScalars.append(try readEscape())
            runStart = position
        }
    }

    /// What the escapes of one letter stand for: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`.
    private static let letterEscapes: [UInt8: Unicode.Scalar] = [
        0x22: "\"", 0x5C: "\\", 0x2F: "/", 0x62: "\u{8}", 0x66: "\u{C}", 0x6E: "\n", 0x72: "\r", 0x74: "\t",
    ]

    /// The character of the escape after a backslash; an unpaired surrogate is U+FFFD.
    private mutating func readEscape() throws -> Unicode.Scalar {
        guard let letter = byte else { throw Malformed(offset: position) }
        position += 1
        if let scalar = Self.letterEscapes[letter] { return scalar }
        guard letter == UInt8(ascii: "u") else { throw Malformed(offset: position - 2) }
        let unit = try readHexUnit()
        switch unit {
        case 0xD800..<0xDC00:
            // A high surrogate: a low one must follow, as `\uDC00`…`\uDFFF`, to make a character.
            let mark = position
            if text.count - position >= 6, text[position] == UInt8(ascii: "\\"), text[position + 1] == UInt8(ascii: "u")
            {
                position += 2
                let low = try readHexUnit()
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                }
                // Not its other half: that escape is read again as the next character.
                position = mark
            }
            return "\u{FFFD}"
        case 0xDC00..<0xE000:
            return "\u{FFFD}"
        default:
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
    }

    /// Four hexadecimal digits, as a UTF-16 code unit.
    private mutating func readHexUnit() throws -> UInt32 {
        guard text.count - position >= 4 else { throw Malformed(offset: position) }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let digit = text[position]
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
            default: throw Malformed(offset: position)
            }
            unit = unit << 4 | UInt32(value)
            position += 1
        }
        return unit
    }

    /// A number as JSON spells it: an integer when it has no fraction or exponent and `Int`
    /// holds it, else a finite `Double`.
    private mutating func readNumber() throws -> JSONValue {
        let start = position
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        func digitRun() throws {
            guard isDigit(byte) else { throw Malformed(offset: start) }
            while isDigit(byte) { position += 1 }
        }
        if byte == UInt8(ascii: "-") { position += 1 }
        if byte == UInt8(ascii: "0") {
            position += 1
        } else {
            try digitRun()
        }
        var isInteger = true
        if byte == UInt8(ascii: ".") {
            position += 1
            try digitRun()
            isInteger = false
        }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { position += 1 }
            try digitRun()
            isInteger = false
        }
        // What may not follow a number in JSON (`01`, `1.2.3`, `1-2`) makes the whole run no number.
        if let next = byte,
            isDigit(next) || next == UInt8(ascii: ".") || next == UInt8(ascii: "-")
                || next == UInt8(ascii: "+") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E")
        {
            throw Malformed(offset: start)
        }
        let spelled = String(decoding: text[start..<position], as: UTF8.self)
        if isInteger, let integer = Int(spelled) { return .integer(integer) }
        guard let number = Double(spelled), number.isFinite else { throw Malformed(offset: start) }
        return .number(number)
    }
}
