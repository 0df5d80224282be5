import Foundation
import IPData

/// What `ipdata enrich` does to each record of one shape of input: which addresses it holds, and
/// what goes out once they are answered.
///
/// It works on the record's bytes: what goes out is the record as it came (a byte order mark,
/// line breaks inside quoted fields, bytes that are not UTF-8 and all), with only the new
/// columns, key or lines added before its line end, which is its own (`\r\n` or `\n`).
final class Enricher: Sendable {
    let shape: EnrichCommand.Shape
    /// The fields to add, as dotted paths (`asn.name`).
    let fields: [String]
    /// `--column`: a CSV header name or number from 1, or a JSON line's key.
    let column: String?
    /// The key the data goes under on a JSON line.
    let key: String
    /// Whether the output goes to a terminal: then CSV cells and JSON show control characters
    /// written out too (see `TerminalText`).
    let forTerminal: Bool
    /// The CSV column of the addresses and its name for messages, once the header row is read.
    private let addressColumn = Locked<(index: Int, name: String)?>(nil)

    init(shape: EnrichCommand.Shape, fields: [String], column: String?, key: String, forTerminal: Bool = false) {
        self.shape = shape
        self.fields = fields
        self.column = column
        self.key = key
        self.forTerminal = forTerminal
    }

    var isCSV: Bool { shape == .csv || shape == .tsv }
    /// The separator of a CSV or TSV record's fields; nil for the shapes read line by line.
    var separator: UInt8? {
        switch shape {
        case .csv: return UInt8(ascii: ",")
        case .tsv: return UInt8(ascii: "\t")
        case .jsonl, .lines: return nil
        }
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What `record` says, without the byte order mark that may open the input.
    private static func content(of record: InputRecord, isFirst: Bool) -> ArraySlice<UInt8> {
        let bytes = record.bytes[...]
        return isFirst && bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes
    }

    /// The column of the addresses in a CSV header row's names: `--column` by name or number,
    /// else `ip`, else the first; nil for a name the header lacks.
    func addressColumn(inHeader names: [String]) -> Int? {
        guard let column else { return names.firstIndex { $0.lowercased() == "ip" } ?? 0 }
        if let number = Int(column), number >= 1 { return number - 1 }
        return names.firstIndex { $0.caseInsensitiveCompare(column) == .orderedSame }
    }

    /// Where the addresses are, for messages: `the column ip`, `the column 3`, `the key
    /// client_ip`; with `quoted`, names are in double quotes (`the key "client_ip"`).
    func addressPlace(quoted: Bool = false) -> String {
        func named(_ name: String) -> String { quoted ? "\"\(name)\"" : name }
        guard isCSV else { return "the key \(named(column ?? "ip"))" }
        let (index, name) = addressColumn.withLock { $0 } ?? (0, column ?? "ip")
        return name.isEmpty || Int(column ?? "") != nil ? "the column \(index + 1)" : "the column \(named(name))"
    }

    /// What `record` is, and the addresses to look up for it; throws a usage error for a CSV
    /// header without the column `--column` names.
    func read(_ record: InputRecord, isFirst: Bool) throws -> EnrichLine.Reading {
        let content = Self.content(of: record, isFirst: isFirst)
        switch shape {
        case .csv, .tsv:
            let cells = CSVRecord.fields(content, separator: separator ?? 0).map(Self.trimmedText)
            if isFirst {
                guard let index = addressColumn(inHeader: cells) else {
                    throw CommandError(.usage, "the header row has no column \(column ?? "ip")")
                }
                addressColumn.withLock { $0 = (index, index < cells.count ? cells[index] : "") }
                return EnrichLine.Reading(kind: .header)
            }
            guard content.contains(where: { !Self.isBlank($0) }) else { return EnrichLine.Reading(kind: .asIs) }
            let index = addressColumn.withLock { $0?.index } ?? 0
            let cell = index < cells.count ? cells[index] : ""
            return cell.isEmpty
                ? EnrichLine.Reading(kind: .data, missing: .noAddress)
                : EnrichLine.Reading(kind: .data, addresses: [cell])
        case .jsonl:
            guard content.contains(where: { !Self.isBlank($0) }) else { return EnrichLine.Reading(kind: .asIs) }
            guard case .object(let members)? = try? JSONParser.parse(Data(content)) else {
                return EnrichLine.Reading(kind: .asIs, missing: .notAnObject)
            }
            guard case .string(let address)? = members[column ?? "ip"], !address.isEmpty else {
                return EnrichLine.Reading(kind: .data, missing: .noAddress)
            }
            return EnrichLine.Reading(kind: .data, addresses: [address])
        case .lines:
            var found: [String] = []
            content.withUnsafeBufferPointer { buffer in
                AddressScanner().scan(buffer) { match in
                    if !found.contains(match.address.description) { found.append(match.address.description) }
                    return match.range.upperBound
                }
            }
            return found.isEmpty ? EnrichLine.Reading(kind: .asIs) : EnrichLine.Reading(kind: .data, addresses: found)
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// A cell's bytes as text, without the spaces around it (bytes that are not UTF-8 replaced:
    /// the text is only looked up or matched, never written).
    private static func trimmedText(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// What a row gets from `result`: the values of the fields, or the error.
    func answer(of result: IPLookupResult) -> EnrichAnswer {
        if let error = result.error {
            return EnrichAnswer(values: [], error: error, isAnswered: Self.isRefusalOfNonPublic(error, of: result.ip))
        }
        let record = record(of: result)
        return EnrichAnswer(values: fields.map { record?.value(at: Self.steps($0)) }, error: nil, isAnswered: true)
    }

    /// Whether `error` is the API's answer for a private or reserved address (`10.0.0.1 is a
    /// private IP address`): the row is answered, with that message, rather than failed.
    private static func isRefusalOfNonPublic(_ error: IPDataError, of address: String) -> Bool {
        guard case .badRequest = error, let address = IPAddress(address) else { return false }
        return address.scope != .public
    }

    /// The record as it goes out, with its line end; `answers` are those of its addresses, in order.
    func output(_ line: EnrichLine, answers: [EnrichAnswer]) -> [UInt8] {
        var bytes = line.record.bytes
        switch (line.kind, shape) {
        case (.asIs, _):
            break
        case (.header, _):
            bytes += addedCells(fields + ["ipdata_error"])
        case (.data, .csv), (.data, .tsv):
            let answer = answers.first
            let values = fields.indices.map { index in answer?.values.value(at: index)?.cellText ?? "" }
            let error = answer?.error?.commandLineMessage ?? (answer == nil ? "no address in \(addressPlace())" : "")
            bytes += addedCells(values + [error])
        case (.data, .jsonl):
            var added: [String: JSONValue] = [:]
            if let answer = answers.first {
                if let error = answer.error {
                    added["error"] = .string(error.commandLineMessage)
                } else {
                    for (index, path) in fields.enumerated() { added[path] = answer.values.value(at: index) ?? .null }
                }
            } else {
                added["error"] = .string("no address under \(addressPlace())")
            }
            let content = Self.content(of: line.record, isFirst: line.isFirst)
            let opening = line.record.bytes.count - content.count
            var json = JSONValue.object(added).jsonText()
            if forTerminal { json = String(decoding: TerminalText.escapedJSON(Data(json.utf8)), as: UTF8.self) }
            if let added = Self.adding(key, json, to: content) {
                bytes = Array(line.record.bytes[..<opening]) + added
            }
        case (.data, .lines):
            // A log is a text format: a line break or an escape sequence in an answer is written
            // out, so that it can neither forge a line nor act on a terminal.
            for (address, answer) in zip(line.addresses, answers) {
                bytes += line.annotationLineEnd.bytes
                if let error = answer.error {
                    bytes += Array("  ipdata \(address): error: \(TerminalText.escaped(error.commandLineMessage))".utf8)
                } else {
                    let values = fields.indices.map { index in
                        "\(fields[index])=\(TerminalText.escaped(answer.values.value(at: index)?.cellText ?? ""))"
                    }
                    bytes += Array(("  ipdata \(address): " + values.joined(separator: " ")).utf8)
                }
            }
        }
        return bytes + line.record.lineEnd.bytes
    }

    /// The cells added to a CSV or TSV row, each after a separator.
    private func addedCells(_ values: [String]) -> [UInt8] {
        let separator = String(UnicodeScalar(separator ?? UInt8(ascii: ",")))
        return Array(values.map { separator + cell($0) }.joined().utf8)
    }

    /// The steps of a dotted path: `asn.name` is `asn`, then `name`.
    private static func steps(_ path: String) -> [String] {
        path.split(separator: ".").map(String.init)
    }

    /// The answer of `result` as values to pick fields from: the API's own JSON, else the model's.
    private func record(of result: IPLookupResult) -> JSONValue? {
        if let json = result.json, let value = try? JSONParser.parse(json) { return value }
        return result.response.flatMap { try? JSONValue(encoding: $0) }
    }

    /// A CSV or TSV cell: quoted as CSV needs (and neutralised against spreadsheet formulas),
    /// its control characters written out on a terminal; in TSV, a text format of one line a
    /// record, tabs and line breaks become spaces and other control characters are written out.
    private func cell(_ value: String) -> String {
        guard shape == .tsv else { return CSVWriter.field(forTerminal ? TerminalText.escaped(value) : value) }
        let text = CSVWriter.isFormula(value) ? "'" + value : value
        return TerminalText.escaped(String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 }))
    }

    /// `object` (a JSON object's bytes) with `"key":value` added before its closing brace, every
    /// other byte kept; nil when it does not end with a brace.
    static func adding(_ key: String, _ value: String, to object: ArraySlice<UInt8>) -> [UInt8]? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let brace = object.lastIndex(where: { !isSpace($0) }), object[brace] == UInt8(ascii: "}"),
            let opening = object.firstIndex(where: { !isSpace($0) }), opening < brace
        else { return nil }
        let isEmpty = object[(opening + 1)..<brace].allSatisfy(isSpace)
        let member = (isEmpty ? "" : ",") + JSONValue.string(key).jsonText() + ":" + value
        return Array(object[..<brace]) + Array(member.utf8) + Array(object[brace...])
    }
}

/// What a row gets from the answer of one of its addresses.
struct EnrichAnswer: Sendable {
    /// The value of each field (`Enricher.fields`), in order; nil where the answer has none.
    let values: [JSONValue?]
    /// Why there is no answer, or the API's message for a private or reserved address.
    let error: IPDataError?
    /// Whether the row got what it should: data, or the API's word on a private or reserved
    /// address (which is no failure).
    let isAnswered: Bool
}

extension Array where Element == JSONValue? {
    /// The value at `index`, or nil past the end.
    fileprivate func value(at index: Int) -> JSONValue? {
        index < count ? self[index] : nil
    }
}
