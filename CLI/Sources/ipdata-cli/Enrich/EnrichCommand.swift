import ArgumentParser
import CLILibC
import DiskCache
import Foundation
import IPData

/// `ipdata enrich FILE|-`: the input as it was, every record and byte of it in order, with the
/// data of its addresses added: new columns on a CSV or TSV file, a key on each JSON line, a line
/// under each log line. A row whose lookup fails keeps its data and gets the error, and the run
/// says how many rows got no data.
struct EnrichCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrich",
        abstract: "add the addresses' data to a CSV, JSON lines or log file",
        usage: "ipdata enrich [OPTIONS] FILE | -",
        discussion: HelpProse.flowed(
            """
            Add the data of each line's addresses to the input, keeping everything else as it was:
            every record, in order, byte for byte (a byte order mark, CRLF line ends, bytes that
            are not UTF-8). Only the new columns, key or lines are added, before each record's own
            line end; a last line without a line end stays without one.

              CSV, TSV    the fields become new columns after the last, and an ipdata_error column
              JSON lines  the fields go under a key ("ipdata") added to each object
              lines       each line is followed by one line per address found in it (as grep finds them)

            A CSV or TSV record is read to its end as RFC 4180 says, however many lines its quoted
            fields span. A record longer than 1 MiB, or a quote that is never closed, ends the run
            with exit status 2, and leaves an --output file as it was.

            Addresses are looked up in bulk requests, whatever the number of lines. An address is
            sent once while its answer is kept: as long as a line waiting to be written needs it,
            then among the 10,000 answers used last. Every row gets the answer of its address,
            however often it repeats.

            A row that gets no data (no address in its column or key, a failed lookup) keeps its
            data and gets the error, and the run exits 1 (5 when the API could not be reached),
            saying on standard error how many rows got none and why. The API's answer for a
            private or reserved address is data, not a failure. A run in which no row got data
            leaves an --output file as it was.

              ipdata enrich hosts.csv --output hosts-enriched.csv
              ipdata enrich --as jsonl --column client_ip events.jsonl > events-enriched.jsonl
              tail -n 1000 access.log | ipdata enrich -f country_code,asn.name -
            """))

    /// What the input is.
    enum Shape: String, CaseIterable {
        case csv, tsv, jsonl, lines

        /// The shape a file's name suggests: `.csv`, `.tsv`, `.jsonl` or `.ndjson`; else lines.
        init(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "csv": self = .csv
            case "tsv": self = .tsv
            case "jsonl", "ndjson": self = .jsonl
            default: self = .lines
            }
        }
    }

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "what the input is: csv, tsv, jsonl or lines (default: by the file's extension, else lines)",
            valueName: "SHAPE"),
        completion: .list(Shape.allCases.map(\.rawValue)))
    var shapeName: String?

    @Option(
        help: ArgumentHelp(
            "CSV/TSV: the column of the addresses, a header name or a number from 1 (default ip, else 1); "
                + "JSON lines: the key of the address (default ip)",
            valueName: "NAME|N"))
    var column: String?

    @Option(help: ArgumentHelp("JSON lines: the key the data goes under (default ipdata)", valueName: "NAME"))
    var key: String?

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "the fields to add, dotted paths such as asn.name (default country_code,asn.name,threat.is_threat)",
            valueName: "a,b,c"),
        completion: CompletionCommand.fieldListCompletion)
    var fields: [String] = []

    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(BulkCommand.dryRunHelp))
    var dryRun = false

    @Option(help: ArgumentHelp(CommonOptions.outputHelp, valueName: "FILE"), completion: .file())
    var output: String?

    @OptionGroup var flush: FlushIntervalOptions
    @OptionGroup var endpoint: EndpointOptions
    @OptionGroup var client: ClientOptions

    @Argument(help: ArgumentHelp("the file to enrich, or - for standard input"), completion: .file())
    var inputs: [String] = []

    var isQuiet: Bool { client.quiet }

    static let defaultFields = ["country_code", "asn.name", "threat.is_threat"]

    /// The options, checked.
    private func settings() throws -> (common: CommonOptions, shape: Shape?, fields: FieldSelection) {
        let common = try CommonOptions(client: client, endpoint: endpoint, output: output)
        _ = try flush.seconds()
        let shape = try shapeName.map { text in
            guard let given = Shape(rawValue: text.lowercased()) else {
                throw UsageError("--as must be \(Shape.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return given
        }
        let fields = try FieldSelection(parsing: fields.isEmpty ? [Self.defaultFields.joined(separator: ",")] : fields)
        // A mistyped field is a usage error, before a key is needed or anything is sent.
        try fields.refuseUnknownNames(kind: .address, shape: .single)
        return (common, shape, fields)
    }

    mutating func validate() throws {
        try checked { _ = try settings() }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let (common, givenShape, fields) = try settings()
        guard inputs.count == 1 else { throw UsageError("enrich takes one input: a file, or - for standard input") }
        let input = inputs[0]
        let shape = givenShape ?? (input == "-" ? .lines : Shape(path: input))
        let column = self.column
        let key = self.key ?? "ipdata"
        let (client, cache) = try common.makeClientAndCache(environment: environment, console: console)
        defer { CacheReport.problem(of: cache, to: console) }
        if input != "-", !FileManager.default.isReadableFile(atPath: input) {
            throw CommandError(.usage, "cannot read \(input)")
        }
        let enricher = Enricher(
            shape: shape, fields: fields.paths, column: column, key: key,
            forTerminal: Terminal.showsOutput(at: common.outputPath))
        let source = EnrichSource(path: input, enricher: enricher)
        if dryRun {
            // Every address of every line, repeats included; nothing is written.
            let estimate = try await DryRun.count(
                EnrichInput(source: source, queue: nil), cache: cache, fields: fields.topLevelNames)
            console.printOutput(estimate.text(singleLookups: false) + "\n")
            return .success
        }
        let sink = try common.openOutput(inputs: [input])
        let queue = Locked(EnrichQueue())
        let tallies = Locked(EnrichTally())
        /// A write that failed while a line was queued, thrown once the stream ends.
        let queuedWriteFailure = Locked<(any Error)?>(nil)
        var failures = LookupFailures()
        /// Lookups of public addresses, and whether one got an answer (from the API or the cache).
        var lookups = 0
        var reachedTheAPI = false
        /// Writes lines in order: called with the queue's lock held, by the loop below and as a
        /// line that sends nothing is queued (`EnrichQueue.writesReady`).
        @Sendable func write(_ lines: [(EnrichLine, [EnrichAnswer])]) throws {
            for (line, answers) in lines {
                tallies.withLock { $0.count(line, answers: answers) }
                try sink.write(Data(enricher.output(line, answers: answers)))
            }
        }
        queue.withLock {
            $0.writesReady = { lines in
                do { try write(lines) } catch { queuedWriteFailure.withLock { $0 = $0 ?? error } }
            }
        }
        // Lines are written in order as their answers come in; lines without an address with them.
        var options = LookupStreamOptions()
        options.sendsNonPublicAddresses = false
        // A line is written soon after it was read, even while the input pauses (`tail -f`).
        options.flushInterval = try flush.seconds()
        repeat {
            // One stream for the whole input, unless the lines waiting fill the queue: see EnrichQueue.
            let addresses = EnrichInput(source: source, queue: queue)
            do {
                for try await result in client.lookupStream(addresses, fields: fields.topLevelNames, options: options) {
                    // What is no public address was answered here, not by the API: it says
                    // nothing of whether the API could be reached.
                    if IPAddress(result.ip)?.scope == .public {
                        lookups += 1
                        if result.error?.exitStatus != .networkFailed { reachedTheAPI = true }
                    }
                    if let error = result.error, error.stopsTheRun { throw error }
                    let answer = enricher.answer(of: result)
                    if let error = answer.error, !answer.isAnswered { failures.record(error) }
                    try queue.withLock { try write($0.answer(result.ip, with: answer)) }
                }
                if let failure = queuedWriteFailure.withLock({ $0 }) { throw failure }
            } catch {
                // What was answered before the problem goes out with the lines before it; input
                // that cannot be read as it should (a record too long, an unbalanced quote) leaves
                // an `--output` file as it was, and no partial output beside it.
                try? queue.withLock { try write($0.takeReady()) }
                if let problem = error as? CommandError, problem.status == .usage { sink.markNothingAnswered() }
                // A stop (a refused key, a spent quota) before any row got data leaves nothing worth keeping.
                if error is IPDataError, tallies.withLock({ $0.answered }) == 0 { sink.markNothingAnswered() }
                throw error
            }
            try queue.withLock { try write($0.takeReady()) }
            let left = queue.withLock { $0.count }
            guard left == 0 else { throw CommandError(.lookupFailed, "\(left) lines got no answer from the stream") }
        } while !source.isAtEnd
        let tally = tallies.withLock { $0 }
        // No row got data (a dead server, a wrong --column): an `--output` file stays as it was.
        if (lookups > 0 && !reachedTheAPI) || (tally.rows > 0 && tally.answered == 0) {
            sink.markNothingAnswered()
        } else {
            sink.markComplete()
        }
        if let hits = cache?.hits, hits > 0 { console.note(CacheReport.notice(hits)) }
        if let report = tally.report(enricher) { console.error(report) }
        return tally.unanswered > 0 ? failures.status.combined(with: .lookupFailed) : failures.status
    }
}
