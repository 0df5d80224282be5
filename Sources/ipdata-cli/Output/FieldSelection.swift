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
    var topLevelNames: [String] {
        var names: [String] = []
        for path in paths {
            let name = String(path.prefix { $0 != "." })
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The top-level names that no record of `kind` has, each once, in order: the API's fields
    /// are the keys of the library's models, and in a list `error` is one too. The API answers
    /// such a name with nothing, so a typo would pass silently.
    func unknownNames(kind: RecordKind, shape: RecordShape) -> [String] {
        let known = Self.knownNames(kind: kind, shape: shape)
        return topLevelNames.filter { !known.contains($0) }
    }

    /// Warns on standard error once for each of `unknownNames(kind:shape:)`, naming the field
    /// meant when one is close, else every field.
    func warnAboutUnknownNames(kind: RecordKind, shape: RecordShape, console: Console) {
        let known = Self.knownNames(kind: kind, shape: shape)
        for name in unknownNames(kind: kind, shape: shape) {
            if let close = Self.closest(to: name, among: known) {
                console.warning("--fields: unknown field \(name): did you mean \(close)?")
            } else {
                console.warning("--fields: unknown field \(name): the fields are \(known.joined(separator: ", "))")
            }
        }
    }

    private static func knownNames(kind: RecordKind, shape: RecordShape) -> [String] {
        let names = kind == .asn ? ASNDetail.fieldNames : IPResponse.fieldNames
        return shape == .list ? names + [Columns.error] : names
    }

    /// The known name nearest to `name` in edits (case aside), when it is a likely typo: at most
    /// one edit away for short names, two for names of five letters or more.
    private static func closest(to name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased())
        let limit = typed.count >= 5 ? 2 : 1
        let scored = known.map { ($0, editDistance(typed, Array($0))) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The edits from `a` to `b`: insertions, deletions, substitutions and swaps of two
    /// neighbouring letters (`ctiy` is one edit from `city`).
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var (beforePrevious, previous) = ([Int](), Array(0...b.count))
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                var edits = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { edits = min(edits, beforePrevious[j - 1] + 1) }
                current.append(edits)
            }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }

    /// `record` with only the selected top-level keys.
    func filter(_ record: Record) -> Record {
        let names = Set(topLevelNames)
        return record.filter { names.contains($0.key) }
    }
}
