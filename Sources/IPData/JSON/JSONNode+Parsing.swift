import Foundation

extension JSONNode {
    /// The value `data` holds, read by the client's own parser (`JSONNode.Parser`) as
    /// `JSONDecoder` reads it; throws `DecodingError.dataCorrupted` unless it is one JSON value
    /// and nothing else.
    static func parse(_ data: Data) throws -> JSONNode {
        do {
            return try data.withUnsafeBytes { raw in try Parser.parse(raw.bindMemory(to: UInt8.self)) }
        } catch let error as Malformed {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription: "The given data was not valid JSON: \(error.reason) at byte \(error.offset)."))
        }
    }

    /// How deep arrays and objects may nest: `JSONDecoder`'s and `JSONSerialization`'s limit.
    static let maximumDepth = 512

    /// Text that is not JSON: where (`offset`, in bytes) and why.
    struct Malformed: Error, Sendable {
        let offset: Int
        let reason: String
    }
}

extension JSONNode {
    /// Reads JSON text (RFC 8259) into a `JSONNode`: the first step of decoding every answer.
    ///
    /// It reads every answer `JSONDecoder` reads, with the same values: a leading byte-order mark
    /// is skipped; leading zeros, invalid escapes and anything after the value are errors. Where
    /// `JSONDecoder` checks only the strings a model reads, this parser reads them all, tolerantly
    /// (see `string()`). Arrays and objects nest at most
    /// `maximumDepth` deep, as in `JSONDecoder`, so that a hostile answer of a hundred thousand `[`
    /// cannot run the stack out. Errors are `Malformed`.
    struct Parser {
        private let bytes: UnsafeBufferPointer<UInt8>
        private var index = 0
        private var depth = 0
        /// The members of the objects being read, innermost last (see `object()`).
        private var memberStack: [JSONObject.Member] = []
        /// The elements of the arrays being read, innermost last.
        private var elementStack: [JSONNode] = []

        private init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The value `bytes` hold; throws unless they are one JSON value and nothing else.
        static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONNode {
            var parser = Parser(bytes)
            // A UTF-8 byte-order mark, which JSONDecoder skips too (RFC 8259 forbids sending one).
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.index = 3 }
            let value = try parser.value()
            parser.skipWhitespace()
            guard parser.index == bytes.count else { throw parser.malformed("unexpected text after the value") }
            return value
        }

        private func malformed(_ reason: String, at offset: Int? = nil) -> Malformed {
            Malformed(offset: offset ?? index, reason: reason)
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func value() throws -> JSONNode {
            skipWhitespace()
            guard let byte = current else { throw malformed("unexpected end") }
            switch byte {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return try string().map(JSONNode.string) ?? .null
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        private mutating func object() throws -> JSONNode {
            try enterContainer()
            defer { depth -= 1 }
            // The members go on a stack the whole parse shares, and each object takes its own in
            // one array of the right size at its end: a few allocations per answer, not one per
            // member.
            let first = memberStack.count
            defer { memberStack.removeSubrange(first...) }
            // An object with a key JSONDecoder cannot read is no object to it: `null` here.
            var isReadable = true
            func finished() -> JSONNode {
                isReadable ? .object(JSONObject(members: Array(memberStack[first...]))) : .null
            }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return finished() }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw malformed("expected a key") }
                let key = try string()
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw malformed("expected ':'") }
                let member = try value()
                if let key {
                    memberStack.append(JSONObject.Member(key: key, value: member))
                } else {
                    isReadable = false
                }
                skipWhitespace()
                // A comma before the closing brace, which JSONDecoder accepts too.
                if consume(UInt8(ascii: ",")) {
                    skipWhitespace()
                    if consume(UInt8(ascii: "}")) { return finished() }
                    continue
                }
                guard consume(UInt8(ascii: "}")) else { throw malformed("expected ',' or '}'") }
                return finished()
            }
        }

        private mutating func array() throws -> JSONNode {
            try enterContainer()
            defer { depth -= 1 }
            let first = elementStack.count
            defer { elementStack.removeSubrange(first...) }
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array([]) }
            while true {
                let element = try value()
                elementStack.append(element)
                skipWhitespace()
                // A comma before the closing bracket, which JSONDecoder accepts too.
                if consume(UInt8(ascii: ",")) {
                    skipWhitespace()
                    if consume(UInt8(ascii: "]")) { return .array(Array(elementStack[first...])) }
                    continue
                }
                guard consume(UInt8(ascii: "]")) else { throw malformed("expected ',' or ']'") }
                return .array(Array(elementStack[first...]))
            }
        }

        /// Steps past the `[` or `{` at `index`, one level deeper.
        private mutating func enterContainer() throws {
            guard depth < JSONNode.maximumDepth else {
                throw malformed("nested more than \(JSONNode.maximumDepth) levels deep")
            }
            depth += 1
            index += 1
        }

        /// The string that starts at the `"` at `index`, or nil for one that `JSONDecoder` would
        /// refuse to read (invalid UTF-8, a control character, an invalid or unpaired escape).
        ///
        /// `JSONDecoder` checks a string only when a model reads it, and a lenient model then
        /// reads that field as nil; so such a string is a value that converts to nothing (`null`),
        /// and such a key makes its object unreadable (see `object()`). The text around it is
        /// still read, and only a string without its closing quote fails the whole answer.
        private mutating func string() throws -> String? {
            index += 1
            let start = index
            // Most strings are ASCII without escapes: their bytes are the text.
            var isASCII = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text =
                        isASCII
                        ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                        : utf8Text(start..<index)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                if byte >= 0x80 { isASCII = false }
                index += 1
            }
            guard index < bytes.count else { throw malformed("unterminated string", at: start) }
            var text = utf8Text(start..<index)
            while true {
                guard let byte = current else { throw malformed("unterminated string", at: start) }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    if let scalar = escape() {
                        text?.unicodeScalars.append(scalar)
                    } else {
                        text = nil
                    }
                case 0..<0x20:
                    index += 1
                    text = nil
                default:
                    let run = index
                    while let next = current, next != UInt8(ascii: "\""), next != UInt8(ascii: "\\"), next >= 0x20 {
                        index += 1
                    }
                    if let part = utf8Text(run..<index) { text? += part } else { text = nil }
                }
            }
        }

        /// The text of `range`, or nil when it is not valid UTF-8.
        private func utf8Text(_ range: Range<Int>) -> String? {
            let run = UnsafeBufferPointer(rebasing: bytes[range])
            return String(validating: run, as: UTF8.self)
        }

        /// The character of the escape after a backslash (`index` is just past the backslash), or
        /// nil for an invalid escape or an unpaired surrogate, past which `index` then is.
        private mutating func escape() -> Unicode.Scalar? {
            guard let byte = current else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let code = hexQuad() else { return nil }
                switch code {
                case 0xD800..<0xDC00:
                    // A character outside the Basic Multilingual Plane comes as a surrogate pair.
                    guard consume(UInt8(ascii: "\\")) else { return nil }
                    guard consume(UInt8(ascii: "u")) else {
                        index -= 1  // Not an escape of a low surrogate: read the backslash again.
                        return nil
                    }
                    guard let low = hexQuad(), (0xDC00..<0xE000).contains(low) else { return nil }
                    return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
                case 0xDC00..<0xE000:
                    return nil
                default:
                    return Unicode.Scalar(code)
                }
            default:
                return nil
            }
        }

        /// The four hexadecimal digits at `index`, or nil (then `index` is past the ones read).
        private mutating func hexQuad() -> UInt32? {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current else { return nil }
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                code = code << 4 | UInt32(digit)
                index += 1
            }
            return code
        }

        /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, or `null` for a run
        /// of number characters that is not one, or is too large for a `Double`.
        ///
        /// Like `JSONDecoder`, which checks a number only when a model reads it (and a lenient
        /// model then reads it as nil), the run ends at the first character that cannot be part
        /// of a number; only a run that does not start with `-` or a digit fails the answer.
        private mutating func number() throws -> JSONNode {
            let start = index
            guard let first = current, first == UInt8(ascii: "-") || isDigit(first) else {
                throw malformed("unexpected character")
            }
            while let byte = current,
                isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            {
                index += 1
            }
            if let number = Self.number(UnsafeBufferPointer(rebasing: bytes[start..<index])) { return number }
            return .null
        }

        /// The number `run` spells, if it is one JSON number that a `Double` holds.
        private static func number(_ run: UnsafeBufferPointer<UInt8>) -> JSONNode? {
            var position = 0
            func digits() -> Int {
                let from = position
                while position < run.count, run[position] >= UInt8(ascii: "0"), run[position] <= UInt8(ascii: "9") {
                    position += 1
                }
                return position - from
            }
            let isNegative = run.first == UInt8(ascii: "-")
            if isNegative { position = 1 }
            let integerStart = position
            let integerDigits = digits()
            guard integerDigits > 0, integerDigits == 1 || run[integerStart] != UInt8(ascii: "0") else { return nil }
            var isWhole = true
            if position < run.count, run[position] == UInt8(ascii: ".") {
                isWhole = false
                position += 1
                guard digits() > 0 else { return nil }
            }
            if position < run.count, run[position] == UInt8(ascii: "e") || run[position] == UInt8(ascii: "E") {
                isWhole = false
                position += 1
                if position < run.count, run[position] == UInt8(ascii: "+") || run[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard digits() > 0 else { return nil }
            }
            guard position == run.count else { return nil }
            if isWhole, integerDigits <= 18 {
                // At most 18 digits always fit an Int.
                var magnitude = 0
                for byte in run[integerStart...] { magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0")) }
                return .integer(isNegative ? -magnitude : magnitude)
            }
            let text = String(decoding: run, as: UTF8.self)
            if isWhole, let integer = Int(text) { return .integer(integer) }
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private mutating func literal(_ word: StaticString, _ value: JSONNode) throws -> JSONNode {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw malformed("unexpected end") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw malformed("unexpected character")
            }
            index += count
            return value
        }

        private mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }
    }
}
