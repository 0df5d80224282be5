import Foundation
import IPData

/// Writes the results of a lookup stream (`client.lookupStream`) as records, in input order, as
/// they arrive: shared by `ipdata IP IP…` and `ipdata bulk`.
///
/// Every address gets a record, and every record has the `ip` it is about, whatever `--fields`
/// selects. One that fails on its own (the API rejects it, or it is no address) becomes a record
/// with `ip` and `error`, and the run goes on. A failure that every later lookup would share (a
/// refused key, an exhausted quota) stops the run: no more input is read, but the answers of the
/// requests already in flight are still written, and standard error says where to start again.
struct StreamingLookup {
    let selection: FieldSelection?
    let writer: RecordWriter
    let progress: Progress
    let console: Console
    /// Where each address came from (`ipdata bulk`), for error records and the restart line.
    var ledger: InputLedger?
    /// How many addresses there are, when known without a ledger (`ipdata IP IP…`).
    var total: Int?
    /// The inputs `ipdata bulk` reads, for the restart line.
    var inputs: [String] = []
    /// Whether each input starts with a header row that a restart must keep (`--column NAME`).
    var inputsHaveHeaders = false

    /// Whether to print the summary line at the end (`ipdata bulk`).
    var printsSummary = false

    /// One address's outcome, in input order: a result of the library's lookup stream, or an
    /// answer that the disk cache held (`CacheFirstLookup`).
    enum Outcome {
        case streamed(IPLookupResult)
        /// The disk cache's answer for `ip`: the API's JSON, compacted (`CompactJSON`).
        case cached(ip: String, json: Data)
    }

    /// Writes every result of `stream`: see `run(next:)`.
    func run(_ stream: IPLookupStream) async throws -> ExitStatus {
        var results = stream.makeAsyncIterator()
        return try await run(next: { try await results.next().map(Outcome.streamed) })
    }

    /// Writes every result and returns the run's exit status: the gravest of its failures'
    /// (see `ExitStatus`). Throws what the input throws (a file that cannot be read, say).
    ///
    /// The addresses a stop refused get no record each (a refused key would otherwise fill the
    /// output with the same error): the summary counts them, with those never read, and a line
    /// says where to start again.
    func run(next: () async throws -> Outcome?) async throws -> ExitStatus {
        var status = ExitStatus.success
        var stop: (error: IPDataError, origin: InputLedger.Origin?)?
        var refused = 0
        var writtenAfterStop = 0
        /// The first failure to reach the API, said on its own line when no lookup got through.
        var firstNetworkFailure: String?
        /// Writes one address's record: from the API's bytes when the answer kept them; naming
        /// `host` when the address was resolved from it.
        func write(_ answer: InputLedger.Answer, host: String? = nil) throws {
            let answer = host.map { answer.naming(host: $0) } ?? answer
            if let json = answer.json {
                try writer.write(json: json, isCompact: answer.isCompact, orRecord: { answer.record })
            } else {
                try writer.write(answer.record)
            }
            progress.recordWritten(failed: answer.failed, answeredLocally: answer.answeredLocally)
            status = status.combined(with: answer.status)
            if stop != nil { writtenAfterStop += 1 }
        }
        /// Writes the records of the duplicates now due: the answers of their first reading.
        func writeDuplicates() throws {
            guard let ledger else { return }
            while let duplicate = ledger.takeDuplicate(), let key = duplicate.key {
                guard let answer = ledger.answerForDuplicate(of: key) else {
                    refused += 1
                    continue
                }
                try write(answer, host: duplicate.host)
            }
        }
        do {
            reading: while let outcome = try await next() {
                try writeDuplicates()
                let origin = ledger?.takeFirst()
                let answer: InputLedger.Answer
                let item: IPLookupResult
                switch outcome {
                case .cached(let ip, let json):
                    answer = try self.answer(ip: ip, json: json, isCompact: true)
                    try write(answer, host: origin?.host)
                    if let key = origin?.key { ledger?.answered(key, with: answer) }
                    try writeDuplicates()
                    continue reading
                case .streamed(let result):
                    item = result
                }
                switch item.result {
                case .success(let response):
                    answer = try self.answer(for: item, response: response)
                case .failure(let error) where error.stopsTheRun:
                    refused += 1
                    if let key = origin?.key { ledger?.answered(key, with: nil) }
                    guard stop == nil else { continue }
                    stop = (error, origin)
                    progress.reportSwitchIfNeeded()
                    console.error(error.commandLineMessage)
                    // No more input is read; the answers of requests in flight are still written.
                    // Without a ledger the input cannot be held back: leaving the loop drops the
                    // stream, which cancels its requests in flight.
                    guard let ledger else { break reading }
                    ledger.stop()
                    continue
                case .failure(let error):
                    let message = origin?.problem ?? error.commandLineMessage
                    if error.exitStatus == .networkFailed, firstNetworkFailure == nil {
                        firstNetworkFailure = error.commandLineMessage
                    }
                    answer = InputLedger.Answer(
                        record: ["ip": .string(item.ip), Columns.error: .string(console.oneLine(message))],
                        failed: true, status: origin?.problem == nil ? error.exitStatus : .lookupFailed,
                        answeredLocally: !item.isRequestFailure
                            && IPAddress(item.ip).map { $0.scope != .public } == true)
                }
                try write(answer, host: origin?.host)
                if let key = origin?.key { ledger?.answered(key, with: answer) }
                try writeDuplicates()
            }
            try writeDuplicates()
        } catch {
            try? writer.finish()
            throw error
        }
        // A run stopped before any record leaves nothing, not even a CSV header.
        if stop == nil || progress.records > 0 { try writer.finish() }
        guard let stop else {
            // A run in which no lookup got through to the API (a dead server, a wrong
            // `--base-url`) does not replace an `--output` file with nothing but errors.
            let noAnswer = status == .networkFailed && progress.records > 0 && progress.failures == progress.records
            if noAnswer, let firstNetworkFailure {
                console.error("no lookup got an answer: \(firstNetworkFailure)")
                OutputSink.current?.markNothingAnswered()
            } else {
                OutputSink.current?.markComplete()
            }
            if printsSummary { progress.printSummary() }
            return status
        }
        if printsSummary { progress.printSummary(notAttempted: "\(refused) refused, " + notAttempted()) }
        // A stop at the first address (a refused key, say) needs no line to start again from.
        if let origin = stop.origin, progress.records > writtenAfterStop {
            let answered =
                writtenAfterStop > 0 ? "; \(writtenAfterStop) addresses after it were answered and written" : ""
            // An error line, not a notice: --quiet keeps it. An output that `--resume` continues
            // gets its own command to go on (see `OutputSink.finish()`), which keeps what was written.
            let line =
                OutputSink.current?.offersResume == true
                ? "stopped at line \(origin.line) of \(origin.input)" : restartLine(from: origin)
            console.error(line + answered)
        }
        return status.combined(with: stop.error.exitStatus)
    }

    /// The record of an answer. From the bytes the API sent when the stream kept them (the JSON
    /// formats print those), else from the decoded model; either way naming its address, even
    /// when `--fields` leaves `ip` out.
    private func answer(for item: IPLookupResult, response: IPResponse) throws -> InputLedger.Answer {
        guard let json = item.json else {
            var record = try Record(encoding: response, selection: selection)
            if record["ip"] == nil { record["ip"] = .string(item.ip) }
            return InputLedger.Answer(record: record, json: nil, failed: false, status: .success)
        }
        return try answer(ip: item.ip, json: json, isCompact: item.isFromCache)
    }

    /// The record of the answer `json` for `ip`; `isCompact` when it came from the disk cache,
    /// which keeps answers compacted (`CompactJSON`).
    private func answer(ip: String, json: Data, isCompact: Bool) throws -> InputLedger.Answer {
        var json = json
        if let selection, !selection.topLevelNames.contains("ip") { json = RawJSON.withAddress(json, ip: ip) }
        // The values are read from the bytes only for the formats that need them (CSV, table).
        var record: Record = [:]
        if !writer.printsJSON {
            record = try Record(json: json, selection: selection)
            if record["ip"] == nil { record["ip"] = .string(ip) }
        }
        return InputLedger.Answer(record: record, json: json, isCompact: isCompact, failed: false, status: .success)
    }

    /// The summary's count of addresses never looked up after a stop.
    private func notAttempted() -> String {
        guard let ledger else { return "\(max(0, (total ?? progress.records) - progress.records)) not attempted" }
        switch ledger.unread {
        case .counted(let count): return "\(count + ledger.readButNotTaken) not attempted"
        // The input had ended before the stop: nothing was left unread.
        case .unknown: return "\(ledger.readButNotTaken) not attempted"
        case .uncounted: return "the rest of standard input not read"
        }
    }

    /// Where to start again: the line of the first address the stop refused.
    private func restartLine(from origin: InputLedger.Origin) -> String {
        let line = "line \(origin.line) of \(origin.input)"
        guard origin.input != "standard input" else {
            return "stopped at \(line): to go on, run again with the input from that line on"
        }
        let path = Self.quoted(origin.input)
        let rest =
            inputsHaveHeaders
            ? "(head -n 1 \(path); tail -n +\(origin.line) \(path))" : "tail -n +\(origin.line) \(path)"
        let arguments = (["-"] + inputs.dropFirst(origin.inputIndex + 1).map(Self.quoted)).joined(separator: " ")
        return "stopped at \(line): to go on from there, run `\(rest) | ipdata bulk [options] \(arguments)`"
    }

    /// A path as a shell reads it: in single quotes unless it is plain.
    static func quoted(_ path: String) -> String {
        guard path.contains(where: { !($0.isLetter || $0.isNumber || "/._-+,:@".contains($0)) }) else { return path }
        return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
