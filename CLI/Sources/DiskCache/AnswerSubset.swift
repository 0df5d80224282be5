import Foundation

/// The part of a full answer (all fields) that the API sends for a lookup of some top-level
/// fields (`fields=ip,asn`): the members of those names, in the order of the object, each with
/// the bytes it had, so that a kept full answer answers any subset of its fields.
///
/// The API's `fields=` answer holds the named members that the full answer has, in the full
/// answer's order, and no others: the same keys and the same values. Only the whitespace
/// between members may differ from what the API would send, and the JSON formats the CLI writes
/// drop that whitespace (JSON lines) or keep the answer's own (the other formats read values).
package enum AnswerSubset {
    /// `json`, a JSON object, with only the members named in `names`, as their bytes were, and
    /// the whitespace around them as it was; nil when `json` is not a JSON object.
    package static func members(of json: Data, named names: Set<String>) -> Data? {
        // Checked whole first, so the scan may take the grammar for granted.
        guard (try? JSONSerialization.jsonObject(with: json)) is [String: Any] else { return nil }
        return members(ofObject: json, named: names)
    }

    /// `members(of:named:)` of `json` that a JSON parser read whole as one object (Foundation's,
    /// or `JSONDecoder`), which is not parsed again. Foundation's parsers on Linux take a comma
    /// before a closing bracket, which JSON does not allow: such a `json` has no members.
    static func members(ofObject json: Data, named names: Set<String>) -> Data? {
        let bytes = [UInt8](json)
        guard !hasTrailingComma(bytes) else { return nil }
        var index = skippingSpace(bytes, from: 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        let afterOpen = index + 1
        var members: [(start: Int, end: Int, kept: Bool)] = []
        index = skippingSpace(bytes, from: afterOpen)
        while bytes[index] != UInt8(ascii: "}") {
            let start = index
            let nameEnd = endOfString(bytes, from: start)
            let name = Self.name(bytes[start..<nameEnd])
            index = skippingSpace(bytes, from: nameEnd) + 1  // past the colon
            index = endOfValue(bytes, from: skippingSpace(bytes, from: index))
            members.append((start, index, name.map(names.contains) ?? false))
            index = skippingSpace(bytes, from: index)
            if bytes[index] == UInt8(ascii: ",") { index = skippingSpace(bytes, from: index + 1) }
        }
        let close = index
        guard let first = members.first, let last = members.last else { return json }
        var subset = Data(bytes[..<first.start])
        var previousEnd: Int?
        for (position, member) in members.enumerated() where member.kept {
            // The separator that came before the member in the answer (a comma and its spaces).
            if previousEnd != nil { subset.append(contentsOf: bytes[members[position - 1].end..<member.start]) }
            subset.append(contentsOf: bytes[member.start..<member.end])
            previousEnd = member.end
        }
        if previousEnd == nil {
            // No member left: `{}`, and whatever followed the object (a line end).
            return Data(bytes[..<afterOpen]) + Data(bytes[close...])
        }
        subset.append(contentsOf: bytes[last.end...])
        return subset
    }

    /// The name a member's key stands for: its bytes when it has no escape, else the decoded text.
    private static func name(_ key: ArraySlice<UInt8>) -> String? {
        let inside = key.dropFirst().dropLast()
        guard inside.contains(UInt8(ascii: "\\")) else { return String(decoding: inside, as: UTF8.self) }
        return (try? JSONSerialization.jsonObject(with: Data(key), options: .fragmentsAllowed)) as? String
    }

    /// Whether a comma outside any string is followed (past white space) by `}` or `]`.
    private static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var index = 0
        var afterComma = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = endOfString(bytes, from: index)
                afterComma = false
                continue
            case UInt8(ascii: ","): afterComma = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if afterComma { return true }
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: afterComma = false
            }
            index += 1
        }
        return false
    }

    private static func skippingSpace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    /// The index past the string that starts (with its quote) at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return index + 1
    }

    /// The index past the value that starts at `start`.
    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            repeat {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
            } while depth > 0
            return index
        default:
            // A number, true, false or null: up to the next comma, bracket or space.
            var index = start
            while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { index += 1 }
            return index
        }
    }
}
