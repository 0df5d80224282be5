import Foundation
import IPData

/// What `ipdata enrich` does to each line of one shape of input: which addresses it holds, and
/// what goes out once they are answered.
final class Enricher: Sendable {
    let shape: EnrichCommand.Shape
    /// The fields to add, as dotted paths (`asn.name`).
    let fields: [String]
    /// `--column`: a CSV header name or number from 1, or a JSON line's key.
    let column: String?
    /// The key the data goes under on a JSON line.
    let key: String
    /// The CSV column of the addresses, once the header row is read.
    private let columnIndex = Locked<Int?>(nil)

    init(shape: EnrichCommand.Shape, fields: [String], column: String?, key: String) {
        self.shape = shape
        self.fields = fields
        self.column = column
        self.key = key
    }

    var isCSV: Bool { shape == .csv || shape == .tsv }
    private var separator: Character { shape == .tsv ? "\t" : "," }

    /// The column of the addresses in a CSV header row: `--column` by name or number, else `ip`,
    /// else the first; nil for a name the header lacks.
    func addressColumn(inHeader text: String) -> Int? {
        let names = CSVRecord.fields(text, separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let column else { return names.firstIndex { $0.lowercased() == "ip" } ?? 0 }
        if let number = Int(column), number >= 1 { return number - 1 }
        return names.firstIndex { $0.caseInsensitiveCompare(column) == .orderedSame }
    }

    /// What `text` is, and the addresses to look up for it.
    func read(_ text: String, isFirst: Bool) -> (EnrichLine.Kind, [String]) {
        switch shape {
        case .csv, .tsv:
            if isFirst {
                columnIndex.withLock { $0 = addressColumn(inHeader: text) }
                return (.header, [])
            }
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return (.asIs, []) }
            let fields = CSVRecord.fields(text, separator: separator)
            let index = columnIndex.withLock { $0 } ?? 0
            return (.data, [index < fields.count ? fields[index].trimmingCharacters(in: .whitespaces) : ""])
        case .jsonl:
            guard case .object(let members)? = try? JSONParser.parse(Data(text.utf8)) else { return (.asIs, []) }
            guard case .string(let address)? = members[column ?? "ip"] else { return (.data, []) }
            return (.data, [address])
        case .lines:
            var found: [String] = []
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBufferPointer { buffer in
                AddressScanner().scan(UnsafeBufferPointer(buffer)) { match in
                    if !found.contains(match.address.text) { found.append(match.address.text) }
                    return match.range.upperBound
                }
            }
            return found.isEmpty ? (.asIs, []) : (.data, found)
        }
    }

    /// The line as it goes out, with its line end.
    func output(_ line: EnrichLine) -> String {
        switch (line.kind, shape) {
        case (.asIs, _):
            return line.text + "\n"
        case (.header, _):
            let sep = String(separator)
            return line.text + sep + (fields + ["ipdata_error"]).map(cell).joined(separator: sep) + "\n"
        case (.data, .csv), (.data, .tsv):
            let result = line.results.first
            let record = result.flatMap(record(of:))
            let values = fields.map { path in record?.value(at: Self.steps(path))?.cellText ?? "" }
            let error = result?.error?.commandLineMessage ?? (result == nil ? "no address" : "")
            let sep = String(separator)
            return line.text + sep + (values + [error]).map(cell).joined(separator: sep) + "\n"
        case (.data, .jsonl):
            var added: [String: JSONValue] = [:]
            if let result = line.results.first {
                if let error = result.error {
                    added["error"] = .string(error.commandLineMessage)
                } else if let record = record(of: result) {
                    for path in fields { added[path] = record.value(at: Self.steps(path)) ?? .null }
                }
            } else {
                added["error"] = .string("no address under the key \(column ?? "ip")")
            }
            return Self.adding(key, JSONValue.object(added).jsonText(), to: line.text) + "\n"
        case (.data, .lines):
            var text = line.text + "\n"
            for result in line.results {
                if let error = result.error {
                    text += "  ipdata \(result.ip): error: \(error.commandLineMessage)\n"
                } else {
                    let record = record(of: result)
                    let values = fields.map { "\($0)=\(record?.value(at: Self.steps($0))?.cellText ?? "")" }
                    text += "  ipdata \(result.ip): " + values.joined(separator: " ") + "\n"
                }
            }
            return text
        }
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

    /// A CSV or TSV cell: quoted as CSV needs (and neutralised against spreadsheet formulas); in
    /// TSV, tabs and line breaks become spaces.
    private func cell(_ value: String) -> String {
        guard shape == .tsv else { return CSVWriter.field(value) }
        let text = CSVWriter.isFormula(value) ? "'" + value : value
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }

    /// `object` (a JSON object's text) with `"key": value` added before its closing brace, every
    /// other byte kept.
    static func adding(_ key: String, _ value: String, to object: String) -> String {
        var text = Substring(object)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        guard text.last == "}" else { return object }
        let body = text.dropLast()
        let isEmpty = body.drop { $0 == "{" || $0.isWhitespace }.isEmpty
        return body + (isEmpty ? "" : ",") + JSONValue.string(key).jsonText() + ":" + value + "}"
    }
}
