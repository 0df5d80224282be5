import Foundation
import IPData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ipdata enrich FILE|-`: the input as it was, every line and byte of it in order, with the data
/// of its addresses added: new columns on a CSV or TSV file, a key on each JSON line, a line under
/// each log line. A line whose lookup fails keeps its data and gets the error.
enum EnrichCommand {
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

    static let asOption = OptionSpec(
        "as", value: "SHAPE",
        help: "what the input is: csv, tsv, jsonl or lines (default: by the file's extension, else lines)")
    static let columnOption = OptionSpec(
        "column", value: "NAME|N",
        help: "CSV/TSV: the column of the addresses, a header name or a number from 1 (default ip, else 1); "
            + "JSON lines: the key of the address (default ip)")
    static let keyOption = OptionSpec(
        "key", value: "NAME", help: "JSON lines: the key the data goes under (default ipdata)")
    static let fieldsOption = OptionSpec(
        "fields", short: "f", value: "a,b,c",
        help: "the fields to add, dotted paths such as asn.name (default country_code,asn.name,threat.is_threat)")

    static let options =
        [asOption, columnOption, keyOption, fieldsOption, BulkCommand.dryRunOption]
        + CommonOptions.specs.filter { ![CommonOptions.fields, CommonOptions.format].contains($0) }

    static let help = HelpText(
        usage: ["ipdata enrich [OPTIONS] FILE | -"],
        summary: """
            Add the data of each line's addresses to the input, keeping everything else as it was:
            every line, in order, byte for byte.

              CSV, TSV    the fields become new columns after the last, and an ipdata_error column
              JSON lines  the fields go under a key ("ipdata") added to each object
              lines       each line is followed by one line per address found in it (as grep finds them)

            Addresses are looked up in bulk requests, whatever the number of lines; one repeated
            among the last 1,024 distinct ones is sent once, and its lines share the answer. A
            line whose lookup fails keeps its data and gets the error; nothing is dropped.

              ipdata enrich hosts.csv --output hosts-enriched.csv
              ipdata enrich --as jsonl --column client_ip events.jsonl > events-enriched.jsonl
              tail -n 1000 access.log | ipdata enrich -f country_code,asn.name -
            """,
        options: options)

    static let defaultFields = ["country_code", "asn.name", "threat.is_threat"]

    static func run(_ parsed: ParsedArguments, environment: [String: String], console: Console) async throws
        -> ExitStatus
    {
        let common = try CommonOptions(parsed)
        guard parsed.positionals.count == 1 else {
            throw UsageError("enrich takes one input: a file, or - for standard input")
        }
        let input = parsed.positionals[0]
        let shape: Shape
        if let text = parsed.value(asOption.name) {
            guard let given = Shape(rawValue: text.lowercased()) else {
                throw UsageError("--as must be \(Shape.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            shape = given
        } else {
            shape = input == "-" ? .lines : Shape(path: input)
        }
        let fields =
            try parsed.allValues(fieldsOption.name).isEmpty
            ? FieldSelection(parsing: [defaultFields.joined(separator: ",")])
            : FieldSelection(parsing: parsed.allValues(fieldsOption.name))
        let column = parsed.value(columnOption.name)
        let key = parsed.value(keyOption.name) ?? "ipdata"
        let (client, cache) = try common.makeClientAndCache(
            environment: environment, console: console, fields: fields.topLevelNames)
        defer { cache?.reportWriteProblem(to: console) }
        if input != "-", !FileManager.default.isReadableFile(atPath: input) {
            throw CommandError(.usage, "cannot read \(input)")
        }
        let enricher = Enricher(shape: shape, fields: fields.paths, column: column, key: key)
        if parsed.has(BulkCommand.dryRunOption.name) {
            // Every address of every line, repeats included; nothing is written.
            let addresses = EnrichInput(path: input, enricher: enricher, queue: nil)
            let estimate = try await DryRun.count(addresses, cache: cache)
            if let problem = addresses.problem.withLock({ $0 }) { throw problem }
            console.printOutput(estimate.text(singleLookups: false) + "\n")
            return .success
        }
        let sink = try common.openOutput(inputs: [input])
        let queue = Locked(EnrichQueue())
        let addresses = EnrichInput(path: input, enricher: enricher, queue: queue)
        var failures = LookupFailures()
        var lookups = 0
        // Lines are written in order as their answers come in; lines without an address with them.
        var options = LookupStreamOptions()
        options.keptAnswers = cache
        options.sendsNonPublicAddresses = false
        for try await result in client.lookupStream(addresses, fields: fields.topLevelNames, options: options) {
            lookups += 1
            if let error = result.error, error.stopsTheRun { throw error }
            if let error = result.error { failures.record(error) }
            let ready = queue.withLock { $0.answer(with: result) }
            for line in ready { try sink.write(enricher.output(line)) }
        }
        for line in queue.withLock({ $0.rest() }) { try sink.write(enricher.output(line)) }
        if let problem = addresses.problem.withLock({ $0 }) { throw problem }
        // A dead server leaves an `--output` file as it was, rather than rows of errors in its place.
        if failures.noneGotThrough(of: lookups) { sink.markNothingAnswered() } else { sink.markComplete() }
        if let hits = cache?.hits, hits > 0 { console.note(CachedAnswers.notice(hits)) }
        failures.report(to: console, what: "their lines carry the error")
        return failures.status
    }
}

/// One line of input on its way out: its text (without its line end), what it is, and the
/// answers of its addresses as they come.
struct EnrichLine {
    enum Kind {
        /// A CSV or TSV header row.
        case header
        /// A line whose addresses are looked up.
        case data
        /// A line that goes out as it came (blank, a comment, a line that is not a JSON object).
        case asIs
    }

    let text: String
    let kind: Kind
    /// The line's addresses, as written, in order.
    let addresses: [String]
    /// Which of them were sent to the stream; the others were sent for an earlier line, whose
    /// answer they share.
    let sent: [Bool]
    /// How many were sent: the answers the line waits for.
    let sentCount: Int
    /// The answers the stream gave for the sent ones, in order.
    var answers: [IPLookupResult] = []
    /// Every address's answer, in order, once the line is complete.
    var results: [IPLookupResult] = []

    init(text: String, kind: Kind, addresses: [String], sent: [Bool]) {
        (self.text, self.kind, self.addresses, self.sent) = (text, kind, addresses, sent)
        self.sentCount = sent.filter { $0 }.count
    }
}

/// The lines read but not yet written, in order; a line goes out once its answers are all in,
/// those of the addresses sent for an earlier line taken from the answers kept.
struct EnrichQueue {
    private var lines: [EnrichLine] = []
    private var head = 0
    /// The first line still waiting for an answer of the stream (answers come in order).
    private var waiting = 0
    /// The latest answers by address (canonical), for repeats: as many as the input keeps as
    /// repeats (`EnrichInput.repeatWindow`), and more than the stream holds in flight (4 bulk
    /// requests of 100).
    private var kept: [String: IPLookupResult] = [:]
    private var keptOrder: [String] = []
    static let keptCount = EnrichInput.repeatWindow + 512

    mutating func append(_ line: EnrichLine) { lines.append(line) }

    /// Gives `result` to the first line still waiting for one, and returns the lines now ready.
    mutating func answer(with result: IPLookupResult) -> [EnrichLine] {
        waiting = max(waiting, head)
        while waiting < lines.count, lines[waiting].answers.count == lines[waiting].sentCount { waiting += 1 }
        if waiting < lines.count { lines[waiting].answers.append(result) }
        if let key = IPAddress.canonical(result.ip), kept.updateValue(result, forKey: key) == nil {
            keptOrder.append(key)
            if keptOrder.count > Self.keptCount { kept[keptOrder.removeFirst()] = nil }
        }
        var ready: [EnrichLine] = []
        while head < lines.count, lines[head].answers.count == lines[head].sentCount {
            ready.append(completed(lines[head]))
            head += 1
        }
        if head > 1024 {
            lines.removeFirst(head)
            waiting = max(0, waiting - head)
            head = 0
        }
        return ready
    }

    /// `line` with every address's answer in order: its own, or the one kept for a repeat.
    private func completed(_ line: EnrichLine) -> EnrichLine {
        var line = line
        var own = line.answers.makeIterator()
        line.results = zip(line.addresses, line.sent).compactMap { address, sent in
            sent ? own.next() : IPAddress.canonical(address).flatMap { kept[$0] }
        }
        return line
    }

    /// At the end: the lines left (those without addresses after the last answer).
    mutating func rest() -> [EnrichLine] {
        defer { (lines, head, waiting) = ([], 0, 0) }
        return lines[head...].map(completed)
    }
}

/// The addresses of the input's lines, in order, for the lookup stream; each line is queued as
/// it is read.
struct EnrichInput: AsyncSequence, Sendable {
    typealias Element = String

    /// The file to read, or `-` for standard input.
    let path: String
    let enricher: Enricher
    /// Where each line waits for its answers; nil for `--dry-run`, which keeps no line and hands
    /// on every address, repeats included.
    let queue: Locked<EnrichQueue>?
    /// How many of the latest distinct addresses a repeat is not sent again for.
    static let repeatWindow = 1_024
    /// A usage problem found in the input (a CSV column that is not there), thrown at the end.
    let problem = Locked<CommandError?>(nil)

    func makeAsyncIterator() -> Iterator { Iterator(input: self) }

    struct Iterator: AsyncIteratorProtocol {
        let input: EnrichInput
        private var pending: [String] = []
        private var lineNumber = 0
        private var reader: LineReader?
        /// The addresses (canonical) sent lately, which a repeat is not sent again for.
        private var recent: Set<String> = []
        private var recentOrder: [String] = []

        init(input: EnrichInput) { self.input = input }

        mutating func next() async throws -> String? {
            let reader =
                try self.reader
                ?? (input.path == "-"
                    ? LineReader.standardInput(expected: "text")
                    : LineReader.file(atPath: input.path, expected: "text"))
            self.reader = reader
            while pending.isEmpty {
                guard var text = try await reader.nextLine() else { return nil }
                lineNumber += 1
                if lineNumber == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
                // A quoted CSV field may go on over the next lines (at most 10 of them).
                var spanned = 1
                while input.enricher.isCSV, CSVRecord.isOpen(text), spanned < 10,
                    let more = try await reader.nextLine()
                {
                    text += "\n" + more
                    spanned += 1
                }
                let (kind, addresses) = input.enricher.read(text, isFirst: lineNumber == 1)
                if kind == .header, input.enricher.isCSV, input.enricher.addressColumn(inHeader: text) == nil {
                    input.problem.withLock {
                        $0 = CommandError(.usage, "the header row has no column \(input.enricher.column ?? "ip")")
                    }
                    return nil
                }
                guard let queue = input.queue else {
                    pending = addresses
                    continue
                }
                let sent = addresses.map { address -> Bool in
                    guard let key = IPAddress.canonical(address) else { return true }
                    guard recent.insert(key).inserted else { return false }
                    recentOrder.append(key)
                    if recentOrder.count > EnrichInput.repeatWindow { recent.remove(recentOrder.removeFirst()) }
                    return true
                }
                queue.withLock { $0.append(EnrichLine(text: text, kind: kind, addresses: addresses, sent: sent)) }
                pending = zip(addresses, sent).filter(\.1).map(\.0)
            }
            return pending.removeFirst()
        }
    }
}
