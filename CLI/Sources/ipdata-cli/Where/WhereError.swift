/// What is wrong with a `--where` expression, and the column (in characters, from 1) where it
/// was found; a usage error, exit status 2.
struct WhereError: Error, Equatable {
    let problem: String
    let column: Int
    /// What to do about it, said after the column (`did you mean threat?`).
    let hint: String?

    init(_ problem: String, column: Int, hint: String? = nil) {
        self.problem = problem
        self.column = column
        self.hint = hint
    }

    /// The line after `ipdata: `: `--where: expected a value after '>=' at column 24`.
    var message: String { "--where: \(problem) at column \(column)" + (hint.map { ": " + $0 } ?? "") }

    var usageError: UsageError { UsageError(message) }
}
