import Foundation

/// Where the objects, arrays and members of one JSON text lie in its bytes, so that members can
/// be added to an object at any depth while every byte of the text stays as it was.
///
/// It reads text that `JSONParser` has already accepted; of a repeated name the last member
/// counts, as there.
struct JSONLayout {
    /// A value's place in the text.
    indirect enum Node {
        /// An object: the offsets of its braces and its members in order.
        case object(open: Int, close: Int, members: [(name: String, node: Node)])
        /// An array: the offsets of its brackets and how many elements it has.
        case array(open: Int, close: Int, count: Int)
        /// Any other value, by its range.
        case scalar(Range<Int>)

        var range: Range<Int> {
            switch self {
            case .object(let open, let close, _), .array(let open, let close, _): return open..<(close + 1)
            case .scalar(let range): return range
            }
        }
    }

    let bytes: [UInt8]
    let root: Node

    /// The layout of `bytes`, or nil when they are not one JSON value.
    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        var position = 0
        guard let root = Self.node(bytes, &position) else { return nil }
        self.root = root
    }

    /// The text with `additions` merged into the top-level object: a member that is new is
    /// added before the object's closing brace (after a comma when it has members); an object
    /// added where the text has an object is merged into it, member by member; an array added
    /// where the text has an array gets its elements appended; a value equal to the one in the
    /// text adds nothing; any other value is added as a member of the same name after the one
    /// in the text, which readers that keep the last of a repeated name (as most do) read.
    /// Each text added goes through `transform` first. Nil when the text is no object.
    func merging(_ additions: [String: JSONValue], transform: (String) -> String = { $0 }) -> [UInt8]? {
        guard case .object = root else { return nil }
        var insertions: [(Int, String)] = []
        collect(additions, into: root, &insertions)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + insertions.reduce(0) { $0 + $1.1.utf8.count })
        var start = 0
        for (offset, text) in insertions.sorted(by: { $0.0 < $1.0 }) {
            output += bytes[start..<offset]
            output += Array(transform(text).utf8)
            start = offset
        }
        output += bytes[start...]
        return output
    }

    private func collect(_ additions: [String: JSONValue], into node: Node, _ insertions: inout [(Int, String)]) {
        guard case .object(_, let close, let members) = node else { return }
        var added: [String] = []
        for name in additions.keys.sorted() {
            guard let value = additions[name] else { continue }
            guard let existing = members.last(where: { $0.name == name })?.node else {
                added.append(JSONValue.string(name).jsonText() + ":" + value.jsonText())
                continue
            }
            switch (existing, value) {
            case (.object, .object(let inner)):
                collect(inner, into: existing, &insertions)
            case (.array(_, let end, let count), .array(let elements)):
                let text = elements.map { $0.jsonText() }.joined(separator: ",")
                if !elements.isEmpty { insertions.append((end, (count > 0 ? "," : "") + text)) }
            default:
                let range = existing.range
                if (try? JSONParser.parse(Data(bytes[range]))) == value { continue }
                added.append(JSONValue.string(name).jsonText() + ":" + value.jsonText())
            }
        }
        guard !added.isEmpty else { return }
        insertions.append((close, (members.isEmpty ? "" : ",") + added.joined(separator: ",")))
    }

    // MARK: Reading

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func skipSpace(_ bytes: [UInt8], _ position: inout Int) {
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
    }

    private static func node(_ bytes: [UInt8], _ position: inout Int) -> Node? {
        skipSpace(bytes, &position)
        guard position < bytes.count else { return nil }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(String, Node)] = []
            skipSpace(bytes, &position)
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(open: start, close: position - 1, members: [])
            }
            while position < bytes.count {
                skipSpace(bytes, &position)
                let nameStart = position
                guard skipString(bytes, &position),
                    case .string(let name)? = try? JSONParser.parse(Data(bytes[nameStart..<position]))
                else { return nil }
                skipSpace(bytes, &position)
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                guard let value = node(bytes, &position) else { return nil }
                members.append((name, value))
                skipSpace(bytes, &position)
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(open: start, close: position - 1, members: members)
                }
                guard bytes[position] == UInt8(ascii: ",") else { return nil }
                position += 1
            }
            return nil
        case UInt8(ascii: "["):
            position += 1
            var count = 0
            skipSpace(bytes, &position)
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(open: start, close: position - 1, count: 0)
            }
            while position < bytes.count {
                guard node(bytes, &position) != nil else { return nil }
                count += 1
                skipSpace(bytes, &position)
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(open: start, close: position - 1, count: count)
                }
                guard bytes[position] == UInt8(ascii: ",") else { return nil }
                position += 1
            }
            return nil
        case UInt8(ascii: "\""):
            guard skipString(bytes, &position) else { return nil }
            return .scalar(start..<position)
        default:
            while position < bytes.count, !isSpace(bytes[position]),
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[position])
            {
                position += 1
            }
            return position > start ? .scalar(start..<position) : nil
        }
    }

    /// Steps past a string from its opening quote; false when there is none, or it is not closed.
    private static func skipString(_ bytes: [UInt8], _ position: inout Int) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return false }
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""):
                position += 1
                return true
            default: position += 1
            }
        }
        return false
    }
}
