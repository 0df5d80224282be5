import Foundation

/// A `RecordWriter` that passes on only the records whose answer satisfies a `--where`
/// expression: `ipdata bulk --where`. A record without an answer (one with an `error`) never
/// does: its data are unknown.
///
/// The expression is evaluated on the whole answer, which may hold fields `--fields` did not
/// select (the expression's own, sent as well); the record passed on has only the selected ones.
final class WhereRecordWriter: RecordWriter {
    private let inner: RecordWriter
    private let expression: WhereExpression
    private let selection: FieldSelection?
    /// Whether the answers carry top-level fields that the selection leaves out, for the expression.
    private let answersHoldMore: Bool

    /// The answers read, and those that matched.
    private(set) var answers = 0
    private(set) var matched = 0

    init(_ inner: RecordWriter, expression: WhereExpression, selection: FieldSelection?) {
        self.inner = inner
        self.expression = expression
        self.selection = selection
        let selected = selection?.topLevelNames
        answersHoldMore =
            selected.map { names in expression.paths.contains { !names.contains(String($0.prefix { $0 != "." })) } }
            ?? false
    }

    /// The answer is read here, so the caller need not read its values.
    var printsJSON: Bool { true }

    func write(_ record: Record) throws {
        guard record[Columns.error] == nil else { return }
        answers += 1
        guard expression.holds({ record.value(at: $0) }) else { return }
        matched += 1
        try inner.write(record)
    }

    func write(json: Data, isCompact: Bool, orRecord record: () throws -> Record) throws {
        guard case .object(let answer) = try JSONParser.parse(json) else {
            throw CommandError(.lookupFailed, "an answer was not a JSON object")
        }
        guard answer[Columns.error] == nil else { return }
        answers += 1
        guard expression.holds({ answer.value(at: $0) }) else { return }
        matched += 1
        var selected = selection?.filter(answer) ?? answer
        if selected["ip"] == nil { selected["ip"] = answer["ip"] }
        if inner.printsJSON, !answersHoldMore {
            try inner.write(json: json, isCompact: isCompact, orRecord: { selected })
        } else {
            try inner.write(selected)
        }
    }

    func finish() throws {
        try inner.finish()
    }

    /// What the summary of the run adds: `12 of 3000 answers matched --where`.
    var tally: String {
        "\(matched) of \(answers) answer\(answers == 1 ? "" : "s") matched --where"
    }
}
