import IPData

/// The rows of an `ipdata enrich` run that should have got data, and why those that did not got
/// none: for the exit status and the one line on standard error that says so.
///
/// A row that should get data is a CSV or TSV row that is not blank, a JSON line that is not
/// blank, or a line in which addresses were found. The API's answer for a private or reserved
/// address (`10.0.0.1 is a private IP address`) is data, not a failure.
struct EnrichTally {
    /// The rows that should have got data.
    private(set) var rows = 0
    /// Those that did.
    private(set) var answered = 0
    private var noAddress = 0
    private var notAnAddress = 0
    private var notAnObject = 0
    private var failed = 0
    private var firstFailure: String?

    /// How many rows got no data.
    var unanswered: Int { rows - answered }

    /// Counts `line`, written with `answers`, those of its addresses in order.
    mutating func count(_ line: EnrichLine, answers: [EnrichAnswer]) {
        guard line.kind == .data || line.missing != nil else { return }
        rows += 1
        switch line.missing {
        case .noAddress?:
            noAddress += 1
            return
        case .notAnObject?:
            notAnObject += 1
            return
        case nil:
            break
        }
        guard let (address, answer) = zip(line.addresses, answers).first(where: { !$0.1.isAnswered }) else {
            answered += 1
            return
        }
        if let message = answer.unresolved {
            failed += 1
            if firstFailure == nil { firstFailure = message }
        } else if IPAddress(address) == nil {
            notAnAddress += 1
        } else {
            failed += 1
            if firstFailure == nil { firstFailure = answer.error?.commandLineMessage }
        }
    }

    /// The line that says how many rows got no data and why, or nil when every row got its data:
    /// `2,998 of 3,000 rows got no data: no address under the key "ip" (name it with --column)`.
    func report(_ enricher: Enricher) -> String? {
        guard unanswered > 0 else { return nil }
        let place = (enricher.hasColumns ? "in " : "under ") + enricher.addressPlace(quoted: true)
        var reasons: [(count: Int, text: String)] = []
        if noAddress > 0 { reasons.append((noAddress, "no address \(place)")) }
        if notAnAddress > 0 { reasons.append((notAnAddress, "no IP address \(place)")) }
        if notAnObject > 0 { reasons.append((notAnObject, "not a JSON object")) }
        if failed > 0 {
            let lookups = failed == 1 ? "the lookup failed" : "lookups failed, the first"
            reasons.append((failed, "\(lookups): \(firstFailure ?? "no answer")"))
        }
        var text =
            reasons.count == 1
            ? reasons[0].text : reasons.map { "\($0.text) (\(Self.grouped($0.count)))" }.joined(separator: "; ")
        if answered == 0, noAddress + notAnAddress > 0 {
            text += enricher.hasColumns ? " (name the column with --column)" : " (name the key with --key)"
        }
        let noun = enricher.shape == .lines ? (rows == 1 ? "line" : "lines") : (rows == 1 ? "row" : "rows")
        return "\(Self.grouped(unanswered)) of \(Self.grouped(rows)) \(noun) got no data: \(text)"
    }

    /// `count` with thousands separated: 2,998.
    private static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
