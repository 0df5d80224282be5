import Foundation

/// Any JSON scalar, read without failing, so that a field the API sends with another JSON type
/// than documented can still be converted where the meaning is clear (see `KeyedDecodingContainer`
/// helpers below) instead of failing the whole response.
struct JSONScalar: Decodable {
    enum Value {
        case null
        case bool(Bool)
        case integer(Int)
        case number(Double)
        case string(String)
        /// An object, an array, or a number no Swift type can hold.
        case unsupported
    }

    let value: Value

    init(from decoder: Decoder) {
        guard let container = try? decoder.singleValueContainer() else {
            value = .unsupported
            return
        }
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            value = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else {
            value = .unsupported
        }
    }

    /// Numbers become their decimal text; booleans, objects and arrays have no clear text form.
    var string: String? {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return String(integer)
        case .number(let number):
            if let integer = Int(exactly: number) { return String(integer) }
            return number.isFinite ? String(number) : nil
        case .null, .bool, .unsupported: return nil
        }
    }

    /// Whole numbers, integral floating-point numbers and numeric strings such as `"1506"`.
    /// An `AS` prefix (`"AS15169"`) is accepted, because ASN lists may arrive as strings.
    var integer: Int? {
        switch value {
        case .integer(let integer): return integer
        case .number(let number): return Int(exactly: number)
        case .string(let string):
            var text = Substring(string.trimmingCharacters(in: .whitespaces))
            if text.uppercased().hasPrefix("AS") { text = text.dropFirst(2) }
            if let integer = Int(text) { return integer }
            return Self.decimal(text).flatMap { Int(exactly: $0) }
        case .null, .bool, .unsupported: return nil
        }
    }

    /// Finite numbers, whether sent as numbers or as numeric strings.
    var double: Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number.isFinite ? number : nil
        case .string(let string):
            return Self.decimal(string.trimmingCharacters(in: .whitespaces))
        case .null, .bool, .unsupported: return nil
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

    /// Booleans, `0`/`1`, and the strings `"true"`, `"false"`, `"1"`, `"0"` in any letter case.
    var bool: Bool? {
        switch value {
        case .bool(let bool): return bool
        case .integer(1): return true
        case .integer(0): return false
        case .string(let string):
            switch string.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        case .integer, .number, .null, .unsupported: return nil
        }
    }
}

/// Decodes an element of an array without failing the array: an element of the wrong shape
/// reads as nil and is dropped by the caller.
struct LenientElement<Element: Decodable>: Decodable {
    let element: Element?

    init(from decoder: Decoder) {
        element = try? Element(from: decoder)
    }
}

/// Decoding that never fails a response because one value has an unexpected JSON type.
///
/// Each helper first tries the documented type (the fast path), and only when that fails reads
/// the value as a `JSONScalar` and converts it where the meaning is clear. Absent keys, `null`
/// and values that cannot be converted read as nil.
extension KeyedDecodingContainer {
    func lenientString(_ key: Key) -> String? {
        do { return try decodeIfPresent(String.self, forKey: key) } catch {
            return (try? decode(JSONScalar.self, forKey: key))?.string
        }
    }

    func lenientInt(_ key: Key) -> Int? {
        do { return try decodeIfPresent(Int.self, forKey: key) } catch {
            return (try? decode(JSONScalar.self, forKey: key))?.integer
        }
    }

    func lenientDouble(_ key: Key) -> Double? {
        do { return try decodeIfPresent(Double.self, forKey: key) } catch {
            return (try? decode(JSONScalar.self, forKey: key))?.double
        }
    }

    func lenientBool(_ key: Key) -> Bool? {
        do { return try decodeIfPresent(Bool.self, forKey: key) } catch {
            return (try? decode(JSONScalar.self, forKey: key))?.bool
        }
    }

    /// A nested object; a value that is not an object of that shape reads as nil.
    func lenientObject<Object: Decodable>(_ type: Object.Type, _ key: Key) -> Object? {
        try? decodeIfPresent(Object.self, forKey: key)
    }

    /// An array of objects; elements that are not objects are dropped, a non-array reads as nil.
    func lenientArray<Object: Decodable>(of type: Object.Type, _ key: Key) -> [Object]? {
        guard let elements = try? decodeIfPresent([LenientElement<Object>].self, forKey: key) else { return nil }
        return elements.compactMap(\.element)
    }

    /// An array of strings; numbers are converted, other elements are dropped.
    func lenientStrings(_ key: Key) -> [String]? {
        if let strings = try? decodeIfPresent([String].self, forKey: key) { return strings }
        guard let scalars = try? decodeIfPresent([JSONScalar].self, forKey: key) else { return nil }
        return scalars.compactMap(\.string)
    }

    /// An array of integers; numeric strings (also `"AS123"`) are converted, other elements dropped.
    func lenientInts(_ key: Key) -> [Int]? {
        if let integers = try? decodeIfPresent([Int].self, forKey: key) { return integers }
        guard let scalars = try? decodeIfPresent([JSONScalar].self, forKey: key) else { return nil }
        return scalars.compactMap(\.integer)
    }
}
