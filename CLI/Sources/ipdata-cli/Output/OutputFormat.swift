/// How results are printed: `--format json|jsonl|csv|tsv|table|markdown` (`md` for short).
enum OutputFormat: String, CaseIterable, Equatable {
    /// Pretty-printed JSON: one object for one result, an array for several.
    case json
    /// JSON lines: one compact object per line.
    case jsonl
    /// CSV with a header row, RFC 4180 quoting and `\n` line ends.
    case csv
    /// Tab-separated values with a header row, tabs, line breaks and backslashes in values
    /// escaped (`\t`, `\n`, `\\`), as PostgreSQL's and MySQL's text format does.
    case tsv
    /// Aligned columns for reading in a terminal.
    case table
    /// A GitHub-flavoured Markdown table, for tickets and chat.
    case markdown

    /// Every format's name, as help and messages list them: `json, jsonl, csv, tsv, table or markdown`.
    static let names: String = {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }()

    /// Reads the value of `--format`.
    init(parsing text: String) throws {
        let name = text.lowercased()
        guard let format = OutputFormat(rawValue: name == "md" ? "markdown" : name) else {
            throw UsageError("--format must be \(Self.names)")
        }
        self = format
    }

    /// The format when `--format` is not given: pretty JSON for one result, JSON lines for several.
    static func defaultFormat(for shape: RecordShape) -> OutputFormat {
        shape == .single ? .json : .jsonl
    }
}

/// Whether a command prints one result or a list of them.
enum RecordShape: Equatable {
    /// One result: the caller's own address, one IP, one ASN. A failure goes to stderr.
    case single
    /// Any number of results, one per address: failures are records with an `error` field.
    case list
}

/// What a record describes, which decides the default CSV and table columns.
enum RecordKind: Equatable {
    /// A lookup of an IP address.
    case address
    /// The detail of an autonomous system.
    case asn
}
