import Foundation

/// JSON without the whitespace between its tokens: the form the cache keeps an answer in, and
/// the form `ipdata`'s JSON lines print, so that an answer read back is printed as it is.
package enum CompactJSON {
    /// `json` without the whitespace between its tokens: one line, the same bytes whichever
    /// endpoint answered (a lookup's pretty object, a bulk answer's `", "` and `": "`). Strings
    /// and numbers keep their bytes. A line break cannot occur inside a JSON string, so every
    /// one of them is such whitespace.
    package static func compacted(_ json: Data) -> Data {
        json.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Data in
            guard input.contains(where: isWhitespace), let start = input.baseAddress else { return json }
            let source = start.assumingMemoryBound(to: UInt8.self)
            let count = input.count
            // One pass over the bytes into a buffer of the input's size: each string is found by
            // its closing quote and copied whole, and between strings a byte is kept or skipped.
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, written in
                guard let target = output.baseAddress else { return }
                var (read, kept) = (0, 0)
                while read < count {
                    let byte = source[read]
                    if byte == UInt8(ascii: "\"") {
                        var end = read + 1
                        while end < count {
                            let next = source[end]
                            if next == UInt8(ascii: "\"") { break }
                            end += next == UInt8(ascii: "\\") ? 2 : 1
                        }
                        // Through the closing quote; an unterminated string to the end.
                        end = min(end + 1, count)
                        (target + kept).initialize(from: source + read, count: end - read)
                        kept += end - read
                        read = end
                        continue
                    }
                    read += 1
                    if isWhitespace(byte) { continue }
                    target[kept] = byte
                    kept += 1
                }
                written = kept
            }
            return Data(bytes)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
