import Foundation

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

    /// `record` with only the selected top-level keys.
    func filter(_ record: Record) -> Record {
        let names = Set(topLevelNames)
        return record.filter { names.contains($0.key) }
    }
}
