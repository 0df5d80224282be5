import Foundation
import IPData

/// The fields `-f/--fields` asks for: top-level names and dotted paths, in the API's snake_case.
///
/// The top-level part of every path is sent to the API as `fields=` (`asn.name` sends `asn`), so
/// the answer carries only those objects. JSON and JSON-lines output print the selected top-level
/// objects whole; CSV and table output have one column per path, such as `asn.name`.
struct FieldSelection: Equatable {
    /// The paths as given, without repeats, in order: the CSV and table columns.
    let paths: [String]

    /// Reads the values of every `--fields` option (`ip,city`, `asn.name`), in order.
    init(parsing lists: [String]) throws {
        var paths: [String] = []
        for list in lists {
            for item in list.split(separator: ",") {
                let path = item.trimmingCharacters(in: .whitespaces)
                guard !path.isEmpty else { continue }
                guard !path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
                    throw UsageError("--fields: \(path) is not a field name or a dotted path such as asn.name")
                }
                if !paths.contains(path) { paths.append(path) }
            }
        }
        guard !paths.isEmpty else { throw UsageError("--fields needs at least one field name, such as ip,city") }
        self.paths = paths
    }

    /// The names to send as `fields=`: the first part of each path, without repeats, in order.
    /// `host` is the CLI's (the name an address was resolved from), not sent; alone, it sends `ip`.
    var topLevelNames: [String] {
        var names: [String] = []
        for path in paths where path != Columns.host {
            let name = String(path.prefix { $0 != "." })
            if !names.contains(name) { names.append(name) }
        }
        return names.isEmpty ? ["ip"] : names
    }

    /// The top-level names that no record of `kind` has, each once, in order: the API's fields
    /// are the keys of the library's models, and in a list `error` is one too. The API answers
    /// such a name with nothing, so a typo would pass silently (see `refuseUnknownNames`).
    func unknownNames(kind: RecordKind, shape: RecordShape) -> [String] {
        let known = Self.knownNames(kind: kind, shape: shape)
        return topLevelNames.filter { !known.contains($0) }
    }

    /// Throws a usage error naming the first of `unknownNames(kind:shape:)`, and the field meant
    /// when one is close, else every field: a typo would otherwise print records without it.
    func refuseUnknownNames(kind: RecordKind, shape: RecordShape) throws {
        guard let name = unknownNames(kind: kind, shape: shape).first else { return }
        throw Self.unknownField(name, option: "--fields", known: Self.knownNames(kind: kind, shape: shape))
    }

    /// Throws a usage error unless the top-level name of the `--field` path `path` is a field of
    /// `kind` records.
    static func refuseUnknownField(_ path: String, kind: RecordKind) throws {
        let name = String(path.prefix { $0 != "." })
        let known = knownNames(kind: kind, shape: .single)
        guard !known.contains(name) else { return }
        throw unknownField(name, option: "--field", known: known)
    }

    private static func unknownField(_ name: String, option: String, known: [String]) -> UsageError {
        if let close = Spelling.closest(to: name, among: known) {
            return UsageError("\(option): unknown field \(name): did you mean \(close)?")
        }
        return UsageError("\(option): unknown field \(name): the fields are \(known.joined(separator: ", "))")
    }

    private static func knownNames(kind: RecordKind, shape: RecordShape) -> [String] {
        let names = kind == .asn ? ASNDetail.fieldNames : IPResponse.fieldNames
        return shape == .list ? names + [Columns.error] : names
    }

    /// `record` with only the selected top-level keys.
    func filter(_ record: Record) -> Record {
        let names = Set(topLevelNames)
        return record.filter { names.contains($0.key) }
    }
}
