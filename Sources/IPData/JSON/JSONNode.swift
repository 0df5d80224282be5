import Foundation

/// A JSON value as the API sent it: what the client reads its answers into before it makes
/// models of them (see `LenientModel`), faster than `JSONDecoder`
/// (BENCHMARKS.md).
///
/// Numbers stay integers (`.integer`) when the text is a whole number that fits an `Int`, and
/// decimals (`.number`) otherwise. An object keeps its members in the order they came.
enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object(JSONObject)
}

/// The members of a JSON object, in the order they came.
struct JSONObject: Sendable, Equatable {
    /// One member: a key and its value.
    struct Member: Sendable, Equatable {
        let key: String
        let value: JSONNode
    }

    private(set) var members: [Member]

    init(members: [Member] = []) {
        self.members = members
    }

    mutating func append(_ key: String, _ value: JSONNode) {
        members.append(Member(key: key, value: value))
    }

    /// The keys, in order.
    var keys: [String] { members.map(\.key) }

    /// The value of `key`: the first one when the key is repeated, as `JSONDecoder` reads it.
    ///
    /// A search, not a hash table: an answer's objects have at most a few dozen members, and
    /// hashing each key as it is parsed costs more than comparing a few strings when it is read.
    subscript(key: String) -> JSONNode? {
        members.first { $0.key == key }?.value
    }
}

// MARK: - Reading a value as the type a model expects

/// The conversions a model makes when a value has another JSON type than documented, where the
/// meaning is clear (see `LenientFields`). Absent values, `null`, and values whose meaning is
/// not clear read as nil.
extension JSONNode {
    /// Strings; numbers become their decimal text. Booleans, objects and arrays have no clear
    /// text form.
    var lenientString: String? {
        switch self {
        case .string(let string): return string
        case .integer(let integer): return String(integer)
        case .number(let number):
            if let integer = Int(exactly: number) { return String(integer) }
            return number.isFinite ? String(number) : nil
        case .null, .bool, .array, .object: return nil
        }
    }

    /// Whole numbers, integral decimals and numeric strings such as `"1506"` (the API sends
    /// `count` that way). An `AS` prefix (`"AS15169"`) is accepted, because ASN lists may arrive
    /// as strings.
    var lenientInteger: Int? {
        switch self {
        case .integer(let integer): return integer
        case .number(let number): return Int(exactly: number)
        case .string(let string):
            // The common case, `count` as the API sends it ("1506"), without the work below.
            if let integer = Int(string) { return integer }
            var text = Substring(string.trimmingCharacters(in: .whitespaces))
            if text.uppercased().hasPrefix("AS") { text = text.dropFirst(2) }
            if let integer = Int(text) { return integer }
            return Self.decimal(text).flatMap { Int(exactly: $0) }
        case .null, .bool, .array, .object: return nil
        }
    }

    /// Finite numbers, whether sent as numbers or as numeric strings.
    var lenientDouble: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number.isFinite ? number : nil
        case .string(let string): return Self.decimal(string.trimmingCharacters(in: .whitespaces))
        case .null, .bool, .array, .object: return nil
        }
    }

    /// Booleans, `0`/`1` (also written `1.0` or `1e0`), and the strings `"true"`, `"false"`, `"1"`,
    /// `"0"` in any letter case.
    var lenientBool: Bool? {
        switch self {
        case .bool(let bool): return bool
        case .integer(1): return true
        case .integer(0): return false
        case .number(let number) where number == 1 || number == 0: return number == 1
        case .string(let string):
            switch string.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        case .integer, .number, .null, .array, .object: return nil
        }
    }

    /// The finite number in `text` when it is written in plain decimal (`-122`, `37.5`, `1e3`),
    /// else nil. The C library's `strtod` behind `Double(_:)` also reads hex, `inf` and `nan`,
    /// which no API field means; this rule is the same on every platform.
    private static func decimal(_ text: some StringProtocol) -> Double? {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let mantissa = bytes.prefix { isDigit($0) || $0 == UInt8(ascii: ".") }
        guard mantissa.contains(where: isDigit), mantissa.filter({ $0 == UInt8(ascii: ".") }).count <= 1 else {
            return nil
        }
        var exponent = bytes.dropFirst(mantissa.count)
        if let e = exponent.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            exponent = exponent.dropFirst()
            if let sign = exponent.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponent = exponent.dropFirst()
            }
            guard !exponent.isEmpty, exponent.allSatisfy(isDigit) else { return nil }
        } else if !exponent.isEmpty {
            return nil
        }
        guard let number = Double(String(text)), number.isFinite else { return nil }
        return number
    }
}
