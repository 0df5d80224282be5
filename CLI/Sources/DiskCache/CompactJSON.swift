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
            guard input.contains(where: isWhitespace) else { return json }
            // One pass over the bytes into a buffer of the input's size: no byte is appended to a
            // growing `Data` one by one (which costs more than the rest of a cached run).
            let bytes = [UInt8](unsafeUninitializedCapacity: input.count) { output, written in
                var count = 0
                var inString = false
                var escaped = false
                for byte in input {
                    if inString {
                        output[count] = byte
                        count += 1
                        if escaped {
                            escaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                        }
                        continue
                    }
                    switch byte {
                    case 0x20, 0x09, 0x0A, 0x0D: continue
                    case UInt8(ascii: "\""): inString = true
                    default: break
                    }
                    output[count] = byte
                    count += 1
                }
                written = count
            }
            return Data(bytes)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
