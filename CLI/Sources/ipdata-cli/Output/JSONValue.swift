import Foundation

/// A JSON value: what the writers print, and what dotted field paths walk.
///
/// Results are turned into JSON by encoding the library's models with `JSONEncoder`, which writes
/// the API's own snake_case keys (`country_name`, `threat.is_tor`), then reading that JSON back
/// into this type with `JSONParser`. Numbers stay integers or decimals as the JSON wrote them.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The JSON that `JSONEncoder` writes for `value`.
    init(encoding value: some Encodable) throws {
        self = try JSONParser.parse(JSONEncoder().encode(value))
    }

    /// The value at a dotted path such as `asn.name`, `threat.is_tor` or `languages.0.name`
    /// (a number indexes an array); nil when any step is missing.
    func value(at path: [String]) -> JSONValue? {
        var current = self
        for step in path {
            switch current {
            case .object(let object):
                guard let next = object[step] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(step), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The JSON text, keys sorted; indented by two spaces over several lines when `pretty`.
    ///
    /// Written here rather than by `JSONEncoder`, so that the output is the same on every
    /// platform: `"key": value`, `[]` and `{}` for empty containers, `/` unescaped, text other
    /// than control characters as it is.
    func jsonText(pretty: Bool = false) -> String {
        var text = ""
        write(to: &text, pretty: pretty, indent: "")
        return text
    }

    private func write(to text: inout String, pretty: Bool, indent: String) {
        let inner = indent + "  "
        let (open, separator, close) = pretty ? ("\n" + inner, ",\n" + inner, "\n" + indent) : ("", ",", "")
        switch self {
        case .null: text += "null"
        case .bool(let bool): text += bool ? "true" : "false"
        case .integer(let integer): text += String(integer)
        case .number(let number): text += number.isFinite ? String(describing: number) : "null"
        case .string(let string): Self.writeString(string, to: &text)
        case .array(let array):
            guard !array.isEmpty else {
                text += "[]"
                return
            }
            text += "[" + open
            for (index, element) in array.enumerated() {
                if index > 0 { text += separator }
                element.write(to: &text, pretty: pretty, indent: inner)
            }
            text += close + "]"
        case .object(let object):
            guard !object.isEmpty else {
                text += "{}"
                return
            }
            text += "{" + open
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { text += separator }
                Self.writeString(key, to: &text)
                text += pretty ? ": " : ":"
                object[key]?.write(to: &text, pretty: pretty, indent: inner)
            }
            text += close + "}"
        }
    }

    private static func writeString(_ string: String, to text: inout String) {
        text += "\""
        // Most text needs no escapes: append it whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// The value as one cell of CSV or a table: text as is, numbers and booleans as JSON writes
    /// them, nothing for null, objects and arrays as compact JSON.
    var cellText: String {
        switch self {
        case .null: return ""
        case .bool(let bool): return bool ? "true" : "false"
        case .integer(let integer): return String(integer)
        case .string(let string): return string
        case .number, .array, .object: return jsonText()
        }
    }

    /// The value as `--field` prints it: text without quotes, anything else as JSON.
    var fieldText: String {
        switch self {
        case .string(let string): return string
        case .array, .object: return jsonText(pretty: true)
        default: return jsonText()
        }
    }
}

/// One output record: a JSON object, such as a lookup result or `{"ip": …, "error": …}`.
typealias Record = [String: JSONValue]

extension Dictionary where Key == String, Value == JSONValue {
    /// The JSON object `JSONEncoder` writes for `value` (an `IPResponse`, an `ASNDetail`), keeping
    /// only the top-level keys `selection` names.
    /// The record of an answer the API sent as `json` (an object), limited to `selection`.
    init(json: Data, selection: FieldSelection?) throws {
        guard case .object(let object) = try JSONParser.parse(json) else {
            throw CommandError(.lookupFailed, "an answer was not a JSON object")
        }
        self = selection?.filter(object) ?? object
    }

    init(encoding value: some Encodable, selection: FieldSelection?) throws {
        guard case .object(let object) = try JSONValue(encoding: value) else {
            throw CommandError(.lookupFailed, "a result did not encode as a JSON object")
        }
        self = selection?.filter(object) ?? object
    }

    /// The value at a dotted path (`asn.name`), or nil.
    func value(at path: String) -> JSONValue? {
        JSONValue.object(self).value(at: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }
}
