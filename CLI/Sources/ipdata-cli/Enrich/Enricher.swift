import Foundation
import IPData

/// What `ipdata enrich` does to each record of one shape of input: which addresses it holds, and
/// what goes out once they are answered.
///
/// It works on the record's bytes: what goes out is the record as it came (a byte order mark,
/// line breaks inside quoted fields, bytes that are not UTF-8 and all), with only the new
/// columns, members, pairs or lines added before its line end, which is its own (`\r\n` or `\n`).
final class Enricher: Sendable {
    /// How the added data is named and laid out.
    enum Style: String, CaseIterable, Sendable {
        /// The API's field names: CSV or Zeek columns, a JSON key, lines under a log line.
        case plain
        /// Elastic Common Schema's names on JSON lines (`source.geo.country_iso_code`…).
        case ecs
        /// logfmt `key=value` pairs at the end of each line.
        case logfmt
    }

    /// The shape given or told by the file's name; a log that opens with Zeek's `#separator`
    /// line is read as Zeek's when `detectsZeek`.
    let givenShape: EnrichCommand.Shape
    let detectsZeek: Bool
    let style: Style
    /// The fields to add, as dotted paths (`asn.name`).
    let fields: [String]
    /// `--key` or `--column`: the places of the addresses; empty for the shape's own.
    let givenKeys: [AddressKey]
    /// Where the data goes on a JSON line: a key of the object, or with `{key}` a key beside
    /// each address, named after the address's own key (`{key}_ipdata` is `src_ip_ipdata`).
    let into: String
    /// Whether the output goes to a terminal: then CSV cells and JSON show control characters
    /// written out too (see `TerminalText`).
    let forTerminal: Bool
    /// `--names`: lines without keys also hold the host names found in them (`HostNameScanner`),
    /// not only their addresses.
    let findsNames: Bool
    /// The columns of the addresses (CSV, TSV, Zeek) and their names, once the header is read.
    private let columns = Locked<[(index: Int, name: String)]>([])
    /// What a Zeek log's header says, once read; nil for other shapes.
    private let zeek = Locked<ZeekHeader?>(nil)

    init(
        shape: EnrichCommand.Shape, detectsZeek: Bool = false, style: Style = .plain, fields: [String],
        keys: [AddressKey] = [], into: String = "ipdata", forTerminal: Bool = false, findsNames: Bool = false
    ) {
        self.givenShape = shape
        self.detectsZeek = detectsZeek
        self.style = style
        self.fields = fields
        self.givenKeys = keys
        self.into = into
        self.forTerminal = forTerminal
        self.findsNames = findsNames
        if shape == .zeek { zeek.withLock { $0 = ZeekHeader() } }
    }

    /// The shape the input is read as.
    var shape: EnrichCommand.Shape { zeek.withLock { $0 } != nil ? .zeek : givenShape }

    /// The places of the addresses: those given, else the shape's own (`ip` on JSON lines,
    /// `source.ip` and `destination.ip` for ECS, `src_ip` and `dest_ip` in `eve.json`, Zeek's
    /// `id.orig_h` and `id.resp_h`); none for CSV (its `ip` column, else the first) and lines.
    var keys: [AddressKey] {
        guard givenKeys.isEmpty else { return givenKeys }
        switch shape {
        case .jsonl: return style == .ecs ? AddressKey.list("source.ip,destination.ip") : [AddressKey("ip")]
        case .eve: return AddressKey.list("src_ip,dest_ip")
        case .zeek: return AddressKey.list("id.orig_h,id.resp_h")
        case .csv, .tsv, .lines: return []
        }
    }

    /// Whether the addresses are in columns (CSV, TSV, Zeek) rather than under keys.
    var hasColumns: Bool { [.csv, .tsv, .zeek].contains(shape) }
    /// The separator of a CSV or TSV record's fields; nil for the shapes read line by line.
    var separator: UInt8? {
        switch givenShape {
        case .csv: return UInt8(ascii: ",")
        case .tsv: return UInt8(ascii: "\t")
        case .jsonl, .eve, .zeek, .lines: return nil
        }
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What `record` says, without the byte order mark that may open the input.
    private static func content(of record: InputRecord, isFirst: Bool) -> ArraySlice<UInt8> {
        let bytes = record.bytes[...]
        return isFirst && bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes
    }

    /// The columns of the addresses in a header's names: those `--column` names by name or
    /// number, else `ip`, else the first (in a Zeek log, those of `id.orig_h` and `id.resp_h` it
    /// has); throws a usage error naming a column the header lacks.
    func addressColumns(inHeader names: [String], header: String = "the header row") throws -> [(
        index: Int, name: String
    )] {
        let keys = self.keys
        guard !keys.isEmpty else {
            let index = names.firstIndex { $0.lowercased() == "ip" } ?? 0
            return [(index, index < names.count ? names[index] : "")]
        }
        if shape == .zeek, givenKeys.isEmpty {
            // Zeek's own columns: those of the two ends this log has (files.log, for one, has neither).
            let found = keys.compactMap { key in
                names.firstIndex(of: key.name).map { (index: $0, name: key.name) }
            }
            guard !found.isEmpty else {
                throw CommandError(
                    .usage, "\(header) has neither id.orig_h nor id.resp_h: name the address column with --column")
            }
            return found
        }
        return try keys.map { key in
            if let number = key.number { return (number - 1, number - 1 < names.count ? names[number - 1] : "") }
            guard let index = names.firstIndex(where: { $0.caseInsensitiveCompare(key.name) == .orderedSame }) else {
                throw CommandError(.usage, "\(header) has no column \(key.name)")
            }
            return (index, names[index])
        }
    }

    /// Where the addresses are, for messages: `the column ip`, `the column 3`, `the key
    /// client_ip`, `the keys src_ip, dest_ip`; with `quoted`, names are in double quotes.
    func addressPlace(quoted: Bool = false) -> String {
        func named(_ name: String) -> String { quoted ? "\"\(name)\"" : name }
        guard hasColumns else {
            let names = keys.isEmpty ? ["ip"] : keys.map(\.written)
            return (names.count == 1 ? "the key " : "the keys ") + names.map(named).joined(separator: ", ")
        }
        let found = columns.withLock { $0 }
        let places = found.isEmpty ? [(0, keys.first?.written ?? "ip")] : found
        let names = zip(places.indices, places).map { offset, place in
            let key = offset < keys.count ? keys[offset] : nil
            return place.1.isEmpty || key?.number != nil ? "\(place.0 + 1)" : named(place.1)
        }
        return (names.count == 1 ? "the column " : "the columns ") + names.joined(separator: ", ")
    }

    // MARK: Reading

    /// What reading a record's content found: its kind, and each address with the index of its
    /// place (a column or key of `keys`, or its order among the addresses a log line holds).
    private struct Scan {
        var kind: EnrichLine.Kind
        var found: [(place: Int, address: String)] = []
        var missing: EnrichLine.Missing?
    }

    /// What `record` is, and the addresses to look up for it; throws a usage error for a header
    /// without a column `--column` names.
    func read(_ record: InputRecord, isFirst: Bool) throws -> EnrichLine.Reading {
        let content = Self.content(of: record, isFirst: isFirst)
        if isFirst, detectsZeek, givenShape == .lines, ZeekHeader.opensLog(content) {
            zeek.withLock { $0 = ZeekHeader() }
        }
        let scan = try self.scan(content, isFirst: isFirst, readsHeader: true)
        return EnrichLine.Reading(kind: scan.kind, addresses: scan.found.map(\.address), missing: scan.missing)
    }

    private func scan(_ content: ArraySlice<UInt8>, isFirst: Bool, readsHeader: Bool) throws -> Scan {
        let isBlank = !content.contains(where: { !Self.isBlank($0) })
        switch shape {
        case .csv, .tsv:
            let cells = CSVRecord.fields(content, separator: separator ?? 0).map(Self.trimmedText)
            if isFirst {
                if readsHeader {
                    let found = try addressColumns(inHeader: cells)
                    columns.withLock { $0 = found }
                }
                return Scan(kind: .header)
            }
            guard !isBlank else { return Scan(kind: .asIs) }
            return Self.data(
                columns.withLock { $0 }.enumerated().map { place, column in
                    (place, column.index < cells.count ? cells[column.index] : "")
                })
        case .jsonl, .eve:
            guard !isBlank else { return Scan(kind: .asIs) }
            guard let object = try? JSONParser.parse(Data(content)), case .object = object else {
                return Scan(kind: .asIs, missing: .notAnObject)
            }
            let scan = Self.data(
                keys.enumerated().map { place, key in
                    guard case .string(let address)? = key.value(in: object) else { return (place, "") }
                    return (place, address)
                })
            // An event of eve.json without addresses (stats, a flow's end without them) goes out as it came.
            return shape == .eve && scan.found.isEmpty ? Scan(kind: .asIs) : scan
        case .zeek:
            if ZeekHeader.directive(of: content) != nil {
                return try readZeekHeader(content, reads: readsHeader)
            }
            guard !isBlank, let header = zeek.withLock({ $0 }), !header.fields.isEmpty else { return Scan(kind: .asIs) }
            let cells = ZeekHeader.split(content, on: header.separator).map { String(decoding: $0, as: UTF8.self) }
            return Self.data(
                columns.withLock { $0 }.enumerated().map { place, column in
                    let cell = column.index < cells.count ? cells[column.index] : ""
                    return (place, cell == header.unsetField || cell == header.emptyField ? "" : cell)
                })
        case .lines:
            if !keys.isEmpty {
                let found = keys.enumerated().compactMap { place, key -> (Int, String)? in
                    guard let value = LogfmtText.value(of: key.written, in: content), !value.isEmpty else { return nil }
                    return (place, value)
                }
                return found.isEmpty ? Scan(kind: .data, missing: .noAddress) : Scan(kind: .data, found: found)
            }
            var matches: [(start: Int, text: String)] = []
            content.withUnsafeBufferPointer { buffer in
                AddressScanner().scan(buffer) { match in
                    matches.append((match.range.lowerBound, match.address.description))
                    return match.range.upperBound
                }
                if findsNames { matches += HostNameScanner.names(in: buffer).map { ($0.range.lowerBound, $0.text) } }
            }
            var found: [String] = []
            for (_, text) in matches.sorted(by: { $0.start < $1.start }) where !found.contains(text) {
                found.append(text)
            }
            return found.isEmpty
                ? Scan(kind: .asIs) : Scan(kind: .data, found: found.enumerated().map { ($0.offset, $0.element) })
        }
    }

    /// A data row of the cells at its places: those that hold text, or a row with no address.
    private static func data(_ cells: [(Int, String)]) -> Scan {
        let found = cells.filter { !$0.1.isEmpty }
        return found.isEmpty ? Scan(kind: .data, missing: .noAddress) : Scan(kind: .data, found: found)
    }

    /// A header line of a Zeek log: `#fields` and `#types` get the new fields (a header), the
    /// others go out as they came; `#fields` names the columns of the addresses.
    private func readZeekHeader(_ content: ArraySlice<UInt8>, reads: Bool) throws -> Scan {
        let directive = ZeekHeader.directive(of: content)
        if reads {
            let header = zeek.withLock { header -> ZeekHeader in
                header?.read(content)
                return header ?? ZeekHeader()
            }
            if directive == "fields" {
                let found = try addressColumns(inHeader: header.fields, header: "the #fields line")
                columns.withLock { $0 = found }
            }
        }
        return Scan(kind: directive == "fields" || directive == "types" ? .header : .asIs)
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
            return EnrichAnswer(
                values: [], error: error, isAnswered: Self.isRefusalOfNonPublic(error, of: result.ip),
                address: result.ip)
        }
        let record = record(of: result)
        return EnrichAnswer(
            values: fields.map { record?.value(at: Self.steps($0)) }, error: nil, isAnswered: true, address: result.ip)
    }

    /// Whether `error` is the API's answer for a private or reserved address (`10.0.0.1 is a
    /// private IP address`): the row is answered, with that message, rather than failed.
    private static func isRefusalOfNonPublic(_ error: IPDataError, of address: String) -> Bool {
        guard case .badRequest = error, let address = IPAddress(address) else { return false }
        return address.scope != .public
    }

    // MARK: Writing

    /// The record as it goes out, with its line end; `answers` are those of its addresses, in order.
    func output(_ line: EnrichLine, answers: [EnrichAnswer]) -> [UInt8] {
        var bytes = line.record.bytes
        let content = Self.content(of: line.record, isFirst: line.isFirst)
        switch (line.kind, shape) {
        case (.asIs, _):
            break
        case (.header, .zeek):
            bytes += zeekHeaderCells(directive: ZeekHeader.directive(of: content))
        case (.header, _):
            bytes += addedCells(columnNames() + ["ipdata_error"])
        case (.data, _):
            let found = (try? scan(content, isFirst: line.isFirst, readsHeader: false).found) ?? []
            var answered: [Int: (address: String, answer: EnrichAnswer)] = [:]
            for ((place, address), answer) in zip(found, answers) where answered[place] == nil {
                answered[place] = (address, answer)
            }
            switch shape {
            case .csv, .tsv: bytes += addedCells(columnValues(answered, cell: { $0?.cellText ?? "" }) ?? [])
            case .zeek:
                let header = zeek.withLock { $0 } ?? ZeekHeader()
                let separator = String(UnicodeScalar(header.separator))
                let values = columnValues(answered, cell: header.cell) ?? []
                bytes += Array(values.map { separator + $0 }.joined().utf8)
            case .jsonl, .eve:
                let opening = line.record.bytes.count - content.count
                let additions = style == .ecs ? ecsAdditions(found, answers) : jsonAdditions(content, answered)
                if let layout = JSONLayout(Array(content)),
                    let merged = layout.merging(additions, transform: { self.forTerminalJSON($0) })
                {
                    bytes = Array(line.record.bytes[..<opening]) + merged
                }
            case .lines:
                bytes += style == .logfmt ? logfmtPairs(found, answers) : annotations(line, answers)
            }
        }
        return bytes + line.record.lineEnd.bytes
    }

    /// The added JSON text as it goes out: on a terminal with control characters written out.
    private func forTerminalJSON(_ json: String) -> String {
        forTerminal ? String(decoding: TerminalText.escapedJSON(Data(json.utf8)), as: UTF8.self) : json
    }

    // MARK: Columns

    /// The names of the added columns, before the error's: the fields, or for several columns of
    /// addresses, each column's name and the field (`src_country_code`); in a Zeek log,
    /// `ipdata.` and the column's last step before each field (`ipdata.orig_h.country_code`).
    private func columnNames() -> [String] {
        let found = columns.withLock { $0 }
        if shape == .zeek {
            let lastSteps = found.map { AddressKey($0.name).lastStep }
            return found.indices.flatMap { place in
                let column = Set(lastSteps).count == lastSteps.count ? lastSteps[place] : found[place].name
                return fields.map { "ipdata.\(column).\($0)" }
            } + ["ipdata.error"]
        }
        guard found.count > 1 else { return fields }
        return found.flatMap { column in
            let name = column.name.isEmpty ? "column\(column.index + 1)" : column.name
            return fields.map { "\(name)_\($0)" }
        }
    }

    /// The cells added to a row: each column's fields, then the error: the lookup's, or that
    /// there was no address; nil before the header named the columns.
    private func columnValues(
        _ answered: [Int: (address: String, answer: EnrichAnswer)], cell: (JSONValue?) -> String
    ) -> [String]? {
        let found = columns.withLock { $0 }
        var cells: [String] = []
        var errors: [String] = []
        for (place, column) in found.enumerated() {
            let answer = answered[place]?.answer
            cells += fields.indices.map { cell(answer?.values.value(at: $0)) }
            if let error = answer?.message {
                errors.append(found.count > 1 ? "\(column.name): \(error)" : error)
            }
        }
        if answered.isEmpty { errors = ["no address in \(addressPlace())"] }
        let error = errors.joined(separator: "; ")
        return cells + [shape == .zeek ? cell(error.isEmpty ? nil : .string(error)) : error]
    }

    /// The cells added to a Zeek `#fields` or `#types` line.
    private func zeekHeaderCells(directive: String?) -> [UInt8] {
        let header = zeek.withLock { $0 } ?? ZeekHeader()
        let separator = String(UnicodeScalar(header.separator))
        let cells: [String]
        switch directive {
        case "fields": cells = columnNames()
        case "types": cells = columns.withLock { $0 }.flatMap { _ in fields.map(ZeekHeader.type(of:)) } + ["string"]
        default: cells = []
        }
        return Array(cells.map { separator + $0 }.joined().utf8)
    }

    /// The cells added to a CSV or TSV row, each after a separator.
    private func addedCells(_ values: [String]) -> [UInt8] {
        let separator = String(UnicodeScalar(separator ?? UInt8(ascii: ",")))
        return Array(values.map { separator + cell($0) }.joined().utf8)
    }

    /// A CSV or TSV cell: quoted as CSV needs (and neutralised against spreadsheet formulas),
    /// its control characters written out on a terminal; in TSV, a text format of one line a
    /// record, tabs and line breaks become spaces and other control characters are written out.
    private func cell(_ value: String) -> String {
        guard shape == .tsv else { return CSVWriter.field(forTerminal ? TerminalText.escaped(value) : value) }
        let text = CSVWriter.isFormula(value) ? "'" + value : value
        return TerminalText.escaped(String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 }))
    }

    // MARK: JSON

    /// The fields of one answer as an object (`{"country_code":"US"}`), or its error; for an
    /// address `written` as a host name, with the address used (`"ip"`), unless a field is `ip`.
    private func fieldsObject(_ answer: EnrichAnswer, written: String) -> JSONValue {
        var object: [String: JSONValue] = [:]
        if let used = Self.addressUsed(answer, written: written), !fields.contains("ip") {
            object["ip"] = .string(used)
        }
        if let error = answer.message {
            object["error"] = .string(error)
            return .object(object)
        }
        for (index, path) in fields.enumerated() { object[path] = answer.values.value(at: index) ?? .null }
        return .object(object)
    }

    /// The address a host name `written` in the input was looked up as; nil for an address.
    private static func addressUsed(_ answer: EnrichAnswer, written: String) -> String? {
        guard HostName.isHostName(written), let address = answer.address else { return nil }
        return address
    }

    /// The members added to a JSON line in the plain style: under `into`, the fields of its one
    /// address, or of each address by its key (`{"src_ip":{…},"dest_ip":{…}}`); with `{key}`
    /// in `into`, beside each address.
    private func jsonAdditions(
        _ content: ArraySlice<UInt8>, _ answered: [Int: (address: String, answer: EnrichAnswer)]
    ) -> [String: JSONValue] {
        let keys = self.keys
        let missing = JSONValue.object(["error": .string("no address under \(addressPlace())")])
        if into.contains("{key}") {
            guard let object = try? JSONParser.parse(Data(content)), !answered.isEmpty else {
                return [into.replacingOccurrences(of: "{key}", with: keys.first?.lastStep ?? "ip"): missing]
            }
            var additions: [String: JSONValue] = [:]
            for (place, (address, answer)) in answered.sorted(by: { $0.key < $1.key }) {
                guard let members = keys[place].members(in: object), let last = members.last else { continue }
                let name = into.replacingOccurrences(of: "{key}", with: last)
                additions = Self.merged(
                    additions, Self.nested(Array(members.dropLast()) + [name], fieldsObject(answer, written: address)))
            }
            return additions
        }
        guard !answered.isEmpty else { return [into: missing] }
        guard keys.count > 1 else {
            return [into: answered[0].map { fieldsObject($0.answer, written: $0.address) } ?? missing]
        }
        var inner: [String: JSONValue] = [:]
        for (place, (address, answer)) in answered {
            inner[keys[place].written] = fieldsObject(answer, written: address)
        }
        return [into: .object(inner)]
    }

    /// The members added to a JSON line as ECS names them: each address's side (`source`) with
    /// its `ip`, `geo` and `as`; `threat.enrichments` for those the threat block flags; and the
    /// tag `_ipdata_lookup_failure` when a lookup failed or the line holds no address.
    private func ecsAdditions(_ found: [(place: Int, address: String)], _ answers: [EnrichAnswer]) -> [String:
        JSONValue]
    {
        let keys = self.keys
        var additions: [String: JSONValue] = [:]
        var enrichments: [JSONValue] = []
        var failed = found.isEmpty
        for ((place, address), answer) in zip(found, answers) {
            guard let side = keys[place].ecsSide else { continue }
            guard answer.message == nil else {
                if !answer.isAnswered { failed = true }
                continue
            }
            let address = Self.addressUsed(answer, written: address) ?? address
            var values: [String: JSONValue] = [:]
            for (index, path) in fields.enumerated() { values[path] = answer.values.value(at: index) }
            let steps = side.split(separator: ".").map(String.init)
            additions = Self.merged(additions, Self.nested(steps, ECSFields.side(address: address, values: values)))
            if let enrichment = ECSFields.enrichment(address: address, field: side + ".ip", threat: values["threat"]) {
                enrichments.append(enrichment)
            }
        }
        if !enrichments.isEmpty {
            additions = Self.merged(additions, ["threat": .object(["enrichments": .array(enrichments)])])
        }
        if failed { additions["tags"] = .array([.string("_ipdata_lookup_failure")]) }
        return additions
    }

    /// `value` under the objects of `path`: `["source", "geo"]` is `{"source":{"geo":value}}`.
    private static func nested(_ path: [String], _ value: JSONValue) -> [String: JSONValue] {
        guard let first = path.first else { return [:] }
        guard path.count > 1 else { return [first: value] }
        return [first: .object(nested(Array(path.dropFirst()), value))]
    }

    /// `a` with `b`'s members: objects merged member by member, arrays joined, else `b`'s.
    private static func merged(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> [String: JSONValue] {
        a.merging(b) { old, new in
            switch (old, new) {
            case (.object(let x), .object(let y)): return .object(merged(x, y))
            case (.array(let x), .array(let y)): return .array(x + y)
            default: return new
            }
        }
    }

    // MARK: Lines

    /// The lines added under a log line: one per address, `  ipdata ADDRESS: field=value…`.
    ///
    /// A log is a text format: a line break or an escape sequence in an answer is written out,
    /// so that it can neither forge a line nor act on a terminal.
    private func annotations(_ line: EnrichLine, _ answers: [EnrichAnswer]) -> [UInt8] {
        var bytes: [UInt8] = []
        if line.addresses.isEmpty {
            bytes += line.annotationLineEnd.bytes + Array("  ipdata: error: no address under \(addressPlace())".utf8)
        }
        for (written, answer) in zip(line.addresses, answers) {
            bytes += line.annotationLineEnd.bytes
            let address = Self.addressUsed(answer, written: written).map { "\(written) (\($0))" } ?? written
            if let error = answer.message {
                bytes += Array("  ipdata \(address): error: \(TerminalText.escaped(error))".utf8)
            } else {
                let values = fields.indices.map { index in
                    "\(fields[index])=\(TerminalText.escaped(answer.values.value(at: index)?.cellText ?? ""))"
                }
                bytes += Array(("  ipdata \(address): " + values.joined(separator: " ")).utf8)
            }
        }
        return bytes
    }

    /// The logfmt pairs added at the end of a line: each field of each address, named after the
    /// address's key (`src_country_code=US`), or for addresses found in the line, `ipdata_` for
    /// the first, `ipdata2_` for the second…; a failed lookup's `…_error`.
    private func logfmtPairs(_ found: [(place: Int, address: String)], _ answers: [EnrichAnswer]) -> [UInt8] {
        let keys = self.keys
        var pairs: [String] = []
        for ((place, written), answer) in zip(found, answers) {
            let prefix = keys.isEmpty ? (place == 0 ? "ipdata_" : "ipdata\(place + 1)_") : keys[place].written + "_"
            if let used = Self.addressUsed(answer, written: written), !fields.contains("ip") || answer.message != nil {
                pairs.append(LogfmtText.pair(prefix + "ip", used))
            }
            if let error = answer.message {
                pairs.append(LogfmtText.pair(prefix + "error", error))
            } else {
                for (index, path) in fields.enumerated() {
                    pairs.append(LogfmtText.pair(prefix + path, answer.values.value(at: index)?.cellText ?? ""))
                }
            }
        }
        if found.isEmpty { pairs.append(LogfmtText.pair("ipdata_error", "no address under \(addressPlace())")) }
        return Array(pairs.map { " " + $0 }.joined().utf8)
    }

    // MARK: Answers

    /// The steps of a dotted path: `asn.name` is `asn`, then `name`.
    private static func steps(_ path: String) -> [String] {
        path.split(separator: ".").map(String.init)
    }

    /// The answer of `result` as values to pick fields from: the API's own JSON, else the model's.
    private func record(of result: IPLookupResult) -> JSONValue? {
        if let json = result.json, let value = try? JSONParser.parse(json) { return value }
        return result.response.flatMap { try? JSONValue(encoding: $0) }
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
    /// The resolver's message for a host name that does not resolve (nothing was sent).
    var unresolved: String?
    /// The address answered, as it was sent; nil for a name that does not resolve.
    var address: String?

    /// The row's error: the resolver's message, or the lookup's.
    var message: String? { unresolved ?? error?.commandLineMessage }
}

extension Array where Element == JSONValue? {
    /// The value at `index`, or nil past the end.
    fileprivate func value(at index: Int) -> JSONValue? {
        index < count ? self[index] : nil
    }
}
