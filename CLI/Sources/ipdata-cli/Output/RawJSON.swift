import DiskCache
import Foundation

/// The bytes of an answer as the API sent them, prepared for output without decoding: made
/// compact for JSON lines or indented for JSON, and given its address when `--fields` left it
/// out. Keys keep their order, and strings and numbers their bytes.
enum RawJSON {
    /// `json` without the whitespace between its tokens (`CompactJSON`, the form the disk cache
    /// keeps answers in): one line, the same bytes whichever endpoint answered, so that
    /// `grep '"is_threat":true'` finds every record.
    static func compacted(_ json: Data) -> Data {
        CompactJSON.compacted(json)
    }

    /// `json` indented as `JSONValue.jsonText(pretty: true)` writes JSON, two spaces a level,
    /// `"key": value`, `{}` and `[]` for empty containers; each line after the first starts with
    /// `indent` too (an element of an array). Its tokens are the API's bytes. `isCompact` when
    /// `json` has no whitespace between its tokens already.
    static func prettyPrinted(_ json: Data, indent: String = "", isCompact: Bool = false) -> Data {
        let compact = isCompact ? json : compacted(json)
        var out = Data()
        out.reserveCapacity(compact.count * 2)
        let prefix = Data(indent.utf8)
        var level = 0
        func newLine() {
            out.append(0x0A)
            out.append(prefix)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        var index = compact.startIndex
        while index < compact.endIndex {
            let byte = compact[index]
            switch byte {
            case UInt8(ascii: "\""):
                // A string, to its closing quote, as it is.
                var end = index + 1
                while end < compact.endIndex, compact[end] != UInt8(ascii: "\"") {
                    end += compact[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                end = min(end + 1, compact.endIndex)
                out.append(compact[index..<end])
                index = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index + 1 < compact.endIndex, compact[index + 1] == close {
                    out.append(close)
                    index += 2
                    continue
                }
                level += 1
                newLine()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                level -= 1
                newLine()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newLine()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [byte, UInt8(ascii: " ")])
            default:
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// The object `json` with `"ip": ip` as its first member, for a record whose fields left the
    /// address out; `json` itself when it is not an object.
    static func withAddress(_ json: Data, ip: String) -> Data {
        withFirstMember(json, name: "ip", value: ip)
    }

    /// The object `json` with `"name": value` as its first member and every byte after it as it
    /// was; `json` itself when it is not an object.
    static func withFirstMember(_ json: Data, name: String, value: String) -> Data {
        guard let open = json.firstIndex(where: { !(0x20 == $0 || 0x09 == $0 || 0x0A == $0 || 0x0D == $0) }),
            json[open] == UInt8(ascii: "{")
        else { return json }
        let rest = json[(open + 1)...]
        let isEmpty =
            rest.first(where: { !(0x20 == $0 || 0x09 == $0 || 0x0A == $0 || 0x0D == $0) }) == UInt8(ascii: "}")
        var out = Data(json[...open])
        let member = JSONValue.string(name).jsonText() + ":" + JSONValue.string(value).jsonText()
        out.append(Data((member + (isEmpty ? "" : ",")).utf8))
        out.append(rest)
        return out
    }
}
