import Foundation

/// Reads JSON text (RFC 8259) into a `JSONValue`.
///
/// Every result is turned into JSON and read back, so this is on the path of every record; a
/// parser of its own reads a record several times faster than `JSONDecoder` can into an enum,
/// and tells integers, decimals and booleans apart the same way on every platform.
///
/// It also reads answers of servers it cannot trust (`--base-url`, a proxy on the way), so
/// arrays and objects nest at most `maximumDepth` deep: each level is a call of its own, and a
/// text of a hundred thousand `[` would otherwise run out of stack.
struct JSONParser {
    /// How deep arrays and objects may nest: `JSONDecoder`'s and `JSONSerialization`'s limit too,
    /// so an answer the library reads is never refused here. The API's own nest 4 deep at most.
    static let maximumDepth = 512

    /// Text that is not JSON, or nests deeper than `maximumDepth`.
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        var isTooDeep = false
        var description: String {
            isTooDeep
                ? "JSON nested more than \(JSONParser.maximumDepth) levels deep (at byte \(offset))"
                : "not valid JSON (at byte \(offset))"
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    /// The arrays and objects open around `index`.
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value `data` holds; throws `Malformed` unless it is one JSON value and nothing else.
    static func parse(_ data: Data) throws -> JSONValue {
        var parser = JSONParser([UInt8](data))
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw Malformed(offset: parser.index) }
        return value
    }

    private mutating func value() throws -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw Malformed(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func object() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(object) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed(offset: index) }
            let key = try string()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw Malformed(offset: index) }
            object[key] = try value()
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { throw Malformed(offset: index) }
        return .object(object)
    }

    private mutating func array() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var array: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(array) }
        repeat {
            array.append(try value())
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { throw Malformed(offset: index) }
        return .array(array)
    }

    /// Steps past the `[` or `{` at `index`, one level deeper; throws past `maximumDepth`.
    private mutating func enterContainer() throws {
        guard depth < Self.maximumDepth else { throw Malformed(offset: index, isTooDeep: true) }
        depth += 1
        index += 1
    }

    private mutating func string() throws -> String {
        index += 1
        let start = index
        // Most strings have no escapes: take their bytes as they are.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            index += 1
        }
        guard index < bytes.count else { throw Malformed(offset: start) }
        var text = [UInt8](bytes[start..<index])
        while bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 1
                try appendEscape(to: &text)
            } else {
                text.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { throw Malformed(offset: start) }
        }
        index += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// The character after a backslash; `index` is just past the backslash.
    private mutating func appendEscape(to text: inout [UInt8]) throws {
        guard index < bytes.count else { throw Malformed(offset: index) }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hexQuad()
            // A character outside the Basic Multilingual Plane comes as a surrogate pair.
            if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let low = try hexQuad()
                code = (0xDC00..<0xE000).contains(low) ? 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
            }
            text.append(contentsOf: String(Unicode.Scalar(code) ?? "\u{FFFD}").utf8)
        default:
            throw Malformed(offset: index - 1)
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw Malformed(offset: index) }
        index += 4
        return code
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        var isInteger = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isInteger = false
            } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || (48...57).contains(byte)) {
                break
            }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { throw Malformed(offset: start) }
        return .number(number)
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw Malformed(offset: index)
        }
        index += utf8.count
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}
