import Foundation

/// What the header lines of a Zeek TSV log say (`#separator`, `#set_separator`, `#empty_field`,
/// `#unset_field`, `#fields`, `#types`), and how a value is written in its columns.
///
/// Zeek writes `\x09` for the separator's escape, `-` for a field that is unset and `(empty)`
/// for one that is empty; a value that holds the separator or a control character has it
/// written as `\xHH`.
struct ZeekHeader: Sendable {
    var separator: UInt8 = 0x09
    var setSeparator = ","
    var emptyField = "(empty)"
    var unsetField = "-"
    /// The names of `#fields`, in order.
    var fields: [String] = []

    /// Whether `bytes` open a Zeek log: `#separator ` and its value.
    static func opensLog(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: Array("#separator ".utf8))
    }

    /// The directive of a header line (`fields` of `#fields\tts\tuid`), or nil for a data row.
    static func directive(of bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.first == UInt8(ascii: "#") else { return nil }
        let name = bytes.dropFirst().prefix { $0 != 0x09 && $0 != 0x20 }
        return String(decoding: name, as: UTF8.self)
    }

    /// Takes in what a header line says.
    mutating func read(_ bytes: ArraySlice<UInt8>) {
        guard let directive = Self.directive(of: bytes) else { return }
        if directive == "separator" {
            let value = String(decoding: bytes.dropFirst("#separator ".utf8.count), as: UTF8.self)
            let unescaped = Self.unescaped(value.trimmingCharacters(in: .whitespaces))
            if let byte = unescaped.utf8.first { separator = byte }
            return
        }
        let values = Self.split(bytes, on: separator).dropFirst().map { String(decoding: $0, as: UTF8.self) }
        switch directive {
        case "set_separator": setSeparator = values.first.map(Self.unescaped) ?? setSeparator
        case "empty_field": emptyField = values.first ?? emptyField
        case "unset_field": unsetField = values.first ?? unsetField
        case "fields": fields = values
        default: break
        }
    }

    /// The cells of a row.
    static func split(_ bytes: ArraySlice<UInt8>, on separator: UInt8) -> [ArraySlice<UInt8>] {
        bytes.split(separator: separator, omittingEmptySubsequences: false)
    }

    /// `\x09` and the like written out as the bytes they stand for.
    static func unescaped(_ text: String) -> String {
        var output = ""
        var rest = Substring(text)
        while let range = rest.range(of: "\\x"), rest.distance(from: range.upperBound, to: rest.endIndex) >= 2 {
            let hex = rest[range.upperBound..<rest.index(range.upperBound, offsetBy: 2)]
            guard let value = UInt8(hex, radix: 16) else { break }
            output += rest[..<range.lowerBound]
            output.unicodeScalars.append(UnicodeScalar(value))
            rest = rest[rest.index(range.upperBound, offsetBy: 2)...]
        }
        return output + rest
    }

    /// The Zeek type of a field added: `double` for coordinates, `count` for scores, `bool` for
    /// flags, else `string`.
    static func type(of path: String) -> String {
        let last = path.split(separator: ".").last.map(String.init) ?? path
        if last == "latitude" || last == "longitude" { return "double" }
        if path.hasPrefix("threat.scores.") { return "count" }
        if last.hasPrefix("is_") { return "bool" }
        return "string"
    }

    /// A cell's text: `-` for no value, `(empty)` for an empty one, `T`/`F`, numbers as they
    /// are, lists joined by the set separator, and the separator, backslashes and control
    /// characters written as `\xHH`.
    func cell(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return unsetField
        case .bool(let bool)?: return bool ? "T" : "F"
        case .array(let elements)? where !elements.contains(where: Self.isObject):
            guard !elements.isEmpty else { return emptyField }
            return elements.map { escaped($0.cellText) }.joined(separator: setSeparator)
        case let value?:
            let text = value.cellText
            return text.isEmpty ? emptyField : escaped(text)
        }
    }

    /// A text cell with the separator, backslashes and what a terminal acts on (control
    /// characters, C1 controls, bidirectional overrides: see `TerminalText`) written as `\xHH`
    /// (or `\uHHHH`).
    func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar.value == UInt32(separator) {
                output += "\\x" + String(format: "%02x", scalar.value)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return TerminalText.escaped(output)
    }
}

extension ZeekHeader {
    fileprivate static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }
}
