import Foundation

/// Reads the top level of a JSON array without decoding it: counts its elements, so that a bulk
/// answer with more elements than addresses sent is refused before it costs any memory (a hostile
/// server's million-element answer to a two-address request stops at the third element), and
/// finds each element's bytes, for a caller that prints what the API sent.
///
/// Elements are passed over by their strings and nesting only; they are not checked: the decoder
/// (or the caller) does that.
enum JSONArrayScan {
    /// The number of elements of the top-level array in `data`, counting no further than
    /// `limit + 1`; nil when `data` does not start with an array. An element cut short by the end
    /// of `data` counts too.
    static func elementCount(of data: Data, limit: Int) -> Int? {
        var count = 0
        let outcome = walk(data) { _ in
            count += 1
            return count <= limit
        }
        switch outcome {
        case .notAnArray: return nil
        case .cutShort(let inElement): return count + (inElement ? 1 : 0)
        case .stopped, .ended: return count
        }
    }

    /// The byte ranges of the elements of the top-level array in `data`, without the whitespace
    /// around them; nil when `data` is not an array, or ends inside one.
    static func elementRanges(of data: Data) -> [Range<Int>]? {
        var ranges: [Range<Int>] = []
        let outcome = walk(data) { range in
            ranges.append(range)
            return true
        }
        guard case .ended = outcome else { return nil }
        return ranges
    }

    /// How a walk over the top-level array ended.
    private enum Outcome {
        case notAnArray
        /// `data` ended inside the array, inside an element or between two.
        case cutShort(inElement: Bool)
        /// The callback asked to stop.
        case stopped
        /// At the array's closing bracket.
        case ended
    }

    /// Calls `element` with the range of each top-level element of the array `data` starts with,
    /// in order, until it returns false.
    private static func walk(_ data: Data, _ element: (Range<Int>) -> Bool) -> Outcome {
        data.withUnsafeBytes { raw -> Outcome in
            let bytes = raw.bindMemory(to: UInt8.self)
            func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            var index = 0
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return .notAnArray }
            index += 1
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
                let closesOrSeparates = depth == 0 && (byte == UInt8(ascii: "]") || byte == UInt8(ascii: ","))
                if start == nil, !closesOrSeparates { start = index - 1 }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case _ where closesOrSeparates:
                    if let first = start, !element(first..<end) { return .stopped }
                    start = nil
                    if byte == UInt8(ascii: "]") { return .ended }
                    continue
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
                end = index
            }
            return .cutShort(inElement: start != nil)
        }
    }
}
