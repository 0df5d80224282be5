import Foundation

/// Counts the elements of a JSON array without decoding it, so that a bulk answer with more
/// elements than addresses sent is refused before it costs any memory: a hostile server's
/// million-element answer to a two-address request stops at the third element.
enum JSONArrayScan {
    /// The number of elements of the top-level array in `data`, counting no further than
    /// `limit + 1`; nil when `data` does not start with an array. The elements themselves are
    /// not checked: the decoder does that.
    static func elementCount(of data: Data, limit: Int) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            func skipWhitespace() {
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return 0 }
            var count = 1
            var depth = 0
            var inString = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 { return count }
                    depth -= 1
                case UInt8(ascii: ",") where depth == 0:
                    count += 1
                    if count > limit { return count }
                default: break
                }
            }
            return count
        }
    }

    /// The byte ranges of the elements of the top-level array in `data`, without the whitespace
    /// around them; nil when `data` is not an array, or ends inside one. Each element is passed
    /// over as the scan above does (strings and nesting), not checked.
    package static func elementRanges(of data: Data) -> [Range<Int>]? {
        data.withUnsafeBytes { raw -> [Range<Int>]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            var index = 0
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            index += 1
            var ranges: [Range<Int>] = []
            var start: Int?
            var end = index
            var depth = 0
            var inString = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        end = index
                    }
                    continue
                }
                if isWhitespace(byte) { continue }
                if start == nil, byte != UInt8(ascii: ","), !(depth == 0 && byte == UInt8(ascii: "]")) {
                    start = index - 1
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]") where depth == 0, UInt8(ascii: ",") where depth == 0:
                    if let first = start { ranges.append(first..<end) }
                    start = nil
                    if byte == UInt8(ascii: "]") { return ranges }
                    continue
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
                end = index
            }
            return nil
        }
    }
}
