import Foundation

/// An answer's JSON as the cache keeps it, read in one pass: checked to be one JSON object
/// (RFC 8259's grammar, nested at most `deepestNesting` levels), compacted (`CompactJSON`'s
/// form), with its top-level `ip` and whether it has a top-level `message`.
///
/// A top-level member whose name, or an `ip` whose value, is written with escapes is not read
/// as one: such bytes are no answer the cache keeps (the API writes neither).
package struct AnswerJSON {
    /// The JSON without the whitespace between its tokens.
    package let compacted: Data
    /// The object's `ip`, when it has one that is a string.
    package let ip: String?
    /// Whether the object has a `message` (the API's word for an error, even in a 200 answer).
    package let hasMessage: Bool

    /// The deepest nesting of arrays and objects read; an answer nests four levels at most.
    static let deepestNesting = 32

    /// Reads `json`; nil when it is not one JSON object, alone but for whitespace around it, or
    /// when a top-level member's name is written with escapes.
    package init?(_ json: Data) {
        let read = json.withUnsafeBytes { raw -> (Data, String?, Bool)? in
            guard let base = raw.baseAddress, !raw.isEmpty,
                let target = malloc(raw.count)?.assumingMemoryBound(to: UInt8.self)
            else { return nil }
            var reader = Reader(source: base.assumingMemoryBound(to: UInt8.self), count: raw.count, target: target)
            guard reader.readAnswer() else {
                free(target)
                return nil
            }
            // The compacted bytes are never more than the input's; the Data frees them.
            let compacted = Data(bytesNoCopy: target, count: reader.written, deallocator: .free)
            return (compacted, reader.ip, reader.hasMessage)
        }
        guard let read else { return nil }
        (compacted, ip, hasMessage) = read
    }

    /// The pass over the bytes: a recursive-descent check that copies every token to `target`,
    /// which has room for all of `source`.
    private struct Reader {
        let source: UnsafePointer<UInt8>
        let count: Int
        let target: UnsafeMutablePointer<UInt8>
        var index = 0
        var written = 0
        var ip: String?
        var hasMessage = false

        mutating func readAnswer() -> Bool {
            skipWhitespace()
            guard peek == UInt8(ascii: "{"), readObject(depth: 1) else { return false }
            skipWhitespace()
            return index == count
        }

        private var peek: UInt8? { index < count ? source[index] : nil }

        private mutating func skipWhitespace() {
            while index < count {
                switch source[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// Copies `source[from..<index]` to the output.
        private mutating func copy(from start: Int) {
            (target + written).initialize(from: source + start, count: index - start)
            written += index - start
        }

        private mutating func write(_ byte: UInt8) {
            target[written] = byte
            written += 1
        }

        private mutating func readValue(depth: Int) -> Bool {
            skipWhitespace()
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"): return readObject(depth: depth + 1)
            case UInt8(ascii: "["): return readArray(depth: depth + 1)
            case UInt8(ascii: "\""): return readString() != nil
            case UInt8(ascii: "t"): return readLiteral("true")
            case UInt8(ascii: "f"): return readLiteral("false")
            case UInt8(ascii: "n"): return readLiteral("null")
            default: return readNumber()
            }
        }

        /// An object; at depth 1, also notes its `ip` and `message`.
        private mutating func readObject(depth: Int) -> Bool {
            guard depth <= AnswerJSON.deepestNesting else { return false }
            index += 1
            write(UInt8(ascii: "{"))
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                index += 1
                write(UInt8(ascii: "}"))
                return true
            }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), let name = readString() else { return false }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return false }
                index += 1
                write(UInt8(ascii: ":"))
                if depth == 1 {
                    guard !name.isEscaped else { return false }
                    if name.matches("message") { hasMessage = true }
                    if name.matches("ip") {
                        skipWhitespace()
                        if peek == UInt8(ascii: "\"") {
                            guard let value = readString(), !value.isEscaped else { return false }
                            ip = value.text
                        } else if !readValue(depth: depth) {
                            return false
                        }
                    } else if !readValue(depth: depth) {
                        return false
                    }
                } else if !readValue(depth: depth) {
                    return false
                }
                skipWhitespace()
                guard let next = peek else { return false }
                index += 1
                write(next)
                if next == UInt8(ascii: "}") { return true }
                guard next == UInt8(ascii: ",") else { return false }
            }
        }

        private mutating func readArray(depth: Int) -> Bool {
            guard depth <= AnswerJSON.deepestNesting else { return false }
            index += 1
            write(UInt8(ascii: "["))
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                index += 1
                write(UInt8(ascii: "]"))
                return true
            }
            while true {
                guard readValue(depth: depth) else { return false }
                skipWhitespace()
                guard let next = peek else { return false }
                index += 1
                write(next)
                if next == UInt8(ascii: "]") { return true }
                guard next == UInt8(ascii: ",") else { return false }
            }
        }

        /// A string's bytes between its quotes, and whether it holds an escape.
        struct StringToken {
            let start: UnsafePointer<UInt8>
            let count: Int
            let isEscaped: Bool

            func matches(_ name: StaticString) -> Bool {
                name.utf8CodeUnitCount == count && memcmp(name.utf8Start, start, count) == 0
            }

            var text: String {
                String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
            }
        }

        /// A string, copied whole; nil when it is not one (a control character, a bad escape,
        /// no closing quote).
        private mutating func readString() -> StringToken? {
            let start = index
            index += 1
            var isEscaped = false
            while index < count {
                let byte = source[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    copy(from: start)
                    return StringToken(start: source + start + 1, count: index - start - 2, isEscaped: isEscaped)
                }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                    guard index + 1 < count else { return nil }
                    switch source[index + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 2
                    case UInt8(ascii: "u"):
                        guard index + 5 < count, (2...5).allSatisfy({ Self.isHexDigit(source[index + $0]) }) else {
                            return nil
                        }
                        index += 6
                    default:
                        return nil
                    }
                    continue
                }
                index += 1
            }
            return nil
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                return true
            default: return false
            }
        }

        private mutating func readLiteral(_ literal: StaticString) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard index + length <= count, memcmp(literal.utf8Start, source + index, length) == 0 else { return false }
            let start = index
            index += length
            copy(from: start)
            return true
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func readNumber() -> Bool {
            let start = index
            if peek == UInt8(ascii: "-") { index += 1 }
            guard let first = peek, Self.isDigit(first) else { return false }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard let digit = peek, Self.isDigit(digit) else { return false }
                skipDigits()
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard let digit = peek, Self.isDigit(digit) else { return false }
                skipDigits()
            }
            copy(from: start)
            return true
        }

        private mutating func skipDigits() {
            while let byte = peek, Self.isDigit(byte) { index += 1 }
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
    }
}
