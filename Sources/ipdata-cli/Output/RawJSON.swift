import Foundation

/// The bytes of an answer as the API sent them, prepared for output without decoding: made one
/// line for JSON lines, and given its address when `--fields` left it out.
enum RawJSON {
    /// `json` without the whitespace between its tokens, so it fits on one line (a line break
    /// cannot occur inside a JSON string, so every one of them is such whitespace).
    static func compacted(_ json: Data) -> Data {
        guard json.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return json }
        var out = Data()
        out.reserveCapacity(json.count)
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                out.append(byte)
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
            out.append(byte)
        }
        return out
    }

    /// The object `json` with `"ip": ip` as its first member, for a record whose fields left the
    /// address out; `json` itself when it is not an object.
    static func withAddress(_ json: Data, ip: String) -> Data {
        guard let open = json.firstIndex(where: { !(0x20 == $0 || 0x09 == $0 || 0x0A == $0 || 0x0D == $0) }),
            json[open] == UInt8(ascii: "{")
        else { return json }
        let rest = json[(open + 1)...]
        let isEmpty =
            rest.first(where: { !(0x20 == $0 || 0x09 == $0 || 0x0A == $0 || 0x0D == $0) }) == UInt8(ascii: "}")
        var out = Data(json[...open])
        out.append(Data((#""ip":"# + JSONValue.string(ip).jsonText() + (isEmpty ? "" : ",")).utf8))
        out.append(rest)
        return out
    }
}
