import IPData

/// Which lines `ipdata filter` prints, from the answers of their addresses, and the lookups that
/// failed.
struct FilterDecision {
    let expression: WhereExpression
    /// The fields the answers carry, in order (`Enricher.fields`).
    let paths: [String]
    let invert: Bool
    /// Whether a line was printed.
    private(set) var printedAny = false
    /// The lines left out because a lookup of theirs failed, and those failures.
    private(set) var undecided = 0
    private var failures = LookupFailures()
    private var firstFailure: String?

    init(expression: WhereExpression, paths: [String], invert: Bool) {
        self.expression = expression
        self.paths = paths
        self.invert = invert
    }

    /// Whether `line` is printed: one of its addresses' data match (with `-v`: it has answered
    /// addresses, none match, and none failed). Private and reserved addresses are skipped.
    mutating func keeps(_ line: EnrichLine, answers: [EnrichAnswer]) -> Bool {
        var answered = false
        var failed = false
        var matched = false
        for answer in answers {
            if let error = answer.error {
                // The API's word on a private or reserved address is no data, and no failure.
                if answer.isAnswered { continue }
                failed = true
                failures.record(error)
                if firstFailure == nil { firstFailure = error.commandLineMessage }
                continue
            }
            answered = true
            if !matched, holds(answer) { matched = true }
        }
        if failed, !matched { undecided += 1 }
        let keeps = invert ? answered && !matched && !failed : matched
        if keeps { printedAny = true }
        return keeps
    }

    /// The answered addresses of a line that `keeps` printed: those whose data match (with
    /// `-v`, all of them, none matching); read from the answers' `ip`, which `paths` must name.
    func keptAddresses(of answers: [EnrichAnswer]) -> [IPAddress] {
        guard let ip = paths.firstIndex(of: "ip") else { return [] }
        return answers.compactMap { answer in
            guard answer.error == nil, invert || holds(answer), ip < answer.values.count,
                case .string(let text)? = answer.values[ip]
            else { return nil }
            return IPAddress(text)
        }
    }

    private func holds(_ answer: EnrichAnswer) -> Bool {
        expression.holds { path in
            guard let index = paths.firstIndex(of: path), index < answer.values.count else { return nil }
            return answer.values[index]
        }
    }

    /// The status the failed lookups add: 2 (as grep's error) for addresses the API rejected,
    /// the CLI's own for an API that could not be reached (5) or limited the rate (6).
    var failureStatus: ExitStatus {
        guard failures.count > 0 else { return .success }
        return failures.status == .lookupFailed ? .usage : failures.status
    }

    /// One line on standard error when lines were left out for a failed lookup.
    func report(to console: Console) {
        guard undecided > 0, let firstFailure else { return }
        let lines = undecided == 1 ? "1 line was" : "\(undecided) lines were"
        console.error("\(lines) left out: the lookup of an address on it failed (\(firstFailure))")
    }
}
