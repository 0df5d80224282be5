import Foundation
import IPData

/// Reads JSON text (RFC 8259) into a `JSONValue`.
///
/// Every result is turned into JSON and read back, so this is on the path of every record. It
/// reads with the library's own parser, in its strict mode (see `JSONNode.parse(_:strict:)`), so
/// that the package has one JSON grammar: a trailing comma, an invalid escape or a number JSON
/// does not spell is an error here, where the client reads past it as `JSONDecoder` does.
///
/// It also reads answers of servers it cannot trust (`--base-url`, a proxy on the way), so
/// arrays and objects nest at most `maximumDepth` deep, and a text of a hundred thousand `[`
/// cannot run the stack out.
enum JSONParser {
    /// How deep arrays and objects may nest: `JSONDecoder`'s and `JSONSerialization`'s limit too,
    /// so an answer the library reads is never refused here. The API's own nest 4 deep at most.
    static let maximumDepth = JSONNode.maximumDepth

    /// Text that is not JSON, or nests deeper than `maximumDepth`.
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        var isTooDeep = false
        var description: String {
            isTooDeep
                ? "JSON nested more than \(JSONParser.maximumDepth) levels deep (at byte \(offset))"
                : "not valid JSON (at byte \(offset))"
        }
    }

    /// The value `data` holds; throws `Malformed` unless it is one JSON value and nothing else.
    static func parse(_ data: Data) throws -> JSONValue {
        do {
            return JSONValue(try JSONNode.parse(data, strict: true))
        } catch let error as JSONNode.Malformed {
            throw Malformed(offset: error.offset, isTooDeep: error.isTooDeep)
        }
    }
}

extension JSONValue {
    /// The value of a parsed node. Of a repeated key the last value is kept, as this tool has
    /// always read one (the client's models read the first, as `JSONDecoder` does).
    fileprivate init(_ node: JSONNode) {
        switch node {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .integer(let integer): self = .integer(integer)
        case .number(let number): self = .number(number)
        case .string(let string): self = .string(string)
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .object(let object):
            var members = [String: JSONValue](minimumCapacity: object.members.count)
            for member in object.members { members[member.key] = JSONValue(member.value) }
            self = .object(members)
        }
    }
}
