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
              Zeek logs   new columns, named in #fields (ipdata.orig_h.country_code) and typed in #types
              eve.json    Suricata's events: src_ip and dest_ip; an event without them goes out as it came
              lines       each line is followed by one line per address found in it (as grep finds them)

            Several columns or keys are read in one pass (--key src_ip,dest_ip, --column 2,5);
            each address is sent once however many columns hold it, and a row needs only one of
            them. A key with dots steps into
            objects (--key source.ip reads {"source":{"ip":…}}, or the key "source.ip" where
            there is no such object); \\. is a dot in a name (--key 'id\\.orig_h'). With several
            keys the data goes under each key's name ("ipdata":{"src_ip":{…},"dest_ip":{…}});
            --into '{key}_ipdata' puts it beside each address instead ("src_ip_ipdata":{…}).
            Members are merged into the objects the line has, never written twice.

              --as ecs     ECS's names: source.geo.country_iso_code, source.geo.location {lat, lon},
                           source.as.number, source.as.organization.name (destination, client and
                           server likewise, by the key), and threat.enrichments for an address
                           the threat block flags (indicator.ip, indicator.type, indicator.ipdata)
              --as logfmt  quoted key=value pairs at the end of each line: src_country_code=US with
                           --key src (logfmt keys), else ipdata_country_code=US, ipdata2_… per address

            A CSV or TSV record is read to its end as RFC 4180 says, however many lines its quoted
            fields span. A record longer than 1 MiB, or a quote that is never closed, ends the run
            with exit status 2, and leaves an --output file as it was.

            Addresses are looked up in bulk requests, whatever the number of lines. An address is
            sent once while its answer is kept: as long as a line waiting to be written needs it,
            then among the 10,000 answers used last. Every row gets the answer of its address,
            however often it repeats.

            A host name in an address column or key (www.example.com: a dotted name ending in a
            top-level domain's letters) is resolved by the system resolver, each name once a run,
            and its row gets the data of its first address: a JSON line's data names it ("ip"),
            -f ip adds it to CSV and TSV, logfmt adds …_ip=, a log line says NAME (ADDRESS). A
            name that does not resolve is the row's error, and nothing is sent for it. In log lines
            names are found only with --names, as grep --names finds them.

            A row that gets no data (no address in its column or key, a failed lookup) keeps its
            data and gets the error, and the run exits 1 (5 when the API could not be reached),
            saying on standard error how many rows got none and why. The API's answer for a
            private or reserved address is data, not a failure. A run in which no row got data
            leaves an --output file as it was.

              ipdata enrich hosts.csv --output hosts-enriched.csv
              ipdata enrich --as jsonl --column client_ip events.jsonl > events-enriched.jsonl
              ipdata enrich --as ecs --input eve /var/log/suricata/eve.json > eve-ecs.jsonl
              ipdata enrich -f country_code,asn.name conn.log > conn-enriched.log
              tail -n 1000 access.log | ipdata enrich -f country_code,asn.name -
            """))

    /// What the input is.
    enum Shape: String, CaseIterable {
        case csv, tsv, jsonl, lines, zeek, eve

        /// The shape a file's name suggests: `.csv`, `.tsv`, `.jsonl` or `.ndjson`, Suricata's
        /// `eve.json` (and `eve-….json`, rotated); else lines (a Zeek log is told by its first line).
        init(path: String) {
            let name = (path as NSString).lastPathComponent.lowercased()
            switch (path as NSString).pathExtension.lowercased() {
            case "csv": self = .csv
            case "tsv": self = .tsv
            case "jsonl", "ndjson": self = .jsonl
            case "json" where name.hasPrefix("eve"): self = .eve
            default: self = .lines
            }
        }
    }

    /// What `--as` takes: a shape of input (as before `--input`), or a style of output.
    static let asValues = ["csv", "tsv", "jsonl", "lines", "ecs", "logfmt"]

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "ecs: ECS field names on JSON lines; logfmt: key=value pairs at the end of each line; "
                + "csv, tsv, jsonl or lines: the same as --input",
            valueName: "STYLE"),
        completion: .list(EnrichCommand.asValues))
    var styleName: String?

    @Option(
        name: .customLong("input"),
        help: ArgumentHelp(
            "what the input is: csv, tsv, jsonl, lines, zeek (TSV logs with #fields) or eve (Suricata's eve.json) "
                + "(default: by the file's extension, a Zeek log by its #separator line, else lines)",
            valueName: "SHAPE"),
        completion: .list(Shape.allCases.map(\.rawValue)))
    var shapeName: String?

    @Option(
        help: ArgumentHelp(
            "CSV, TSV, Zeek: the columns of the addresses, header names or numbers from 1, comma-separated "
                + "(default ip, else 1; Zeek: id.orig_h,id.resp_h); the same as --key",
            valueName: "NAME|N,…"))
    var column: String?

    @Option(
        help: ArgumentHelp(
            "JSON lines, logfmt: the keys of the addresses, comma-separated; a dot steps into an object "
                + "(source.ip), \\. is a dot in a name (default ip; ecs: source.ip,destination.ip; eve: src_ip,dest_ip)",
            valueName: "KEY,…"))
    var key: String?

    @Option(
        help: ArgumentHelp(
            "JSON lines: the key the data goes under (default ipdata); with {key}, a key beside each address "
                + "named after its own ({key}_ipdata: src_ip_ipdata)",
            valueName: "NAME"))
    var into: String?

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "the fields to add, dotted paths such as asn.name (default country_code,asn.name,threat.is_threat)",
            valueName: "a,b,c"),
        completion: CompletionCommand.fieldListCompletion)
    var fields: [String] = []

    @Flag(
        help: ArgumentHelp(
            "lines: also find host names in each line (as grep --names does) and add the data of each one's "
                + "first address; in a column or under a key a name is always resolved"))
    var names = false

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

    /// What the options ask for, once checked by `settings()`.
    struct Settings {
        let common: CommonOptions
        let shape: Shape?
        let style: Enricher.Style
        let keys: [AddressKey]
        let into: String
        let fields: FieldSelection
    }

    /// The options, checked.
    private func settings() throws -> Settings {
        let common = try CommonOptions(client: client, endpoint: endpoint, output: output)
        _ = try flush.seconds()
        func shape(_ text: String, option: String) throws -> Shape {
            guard let given = Shape(rawValue: text.lowercased()) else {
                throw UsageError("\(option) must be \(Shape.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return given
        }
        var shape = try shapeName.map { try shape($0, option: "--input") }
        var style = Enricher.Style.plain
        if let styleName {
            switch styleName.lowercased() {
            case "ecs": style = .ecs
            case "logfmt": style = .logfmt
            case let name where Shape(rawValue: name) != nil && !["zeek", "eve"].contains(name):
                if shape != nil { throw UsageError("--as \(name) is --input \(name): give one of them") }
                shape = Shape(rawValue: name)
            default: throw UsageError("--as must be \(Self.asValues.joined(separator: ", "))")
            }
        }
        if key != nil, column != nil { throw UsageError("--key and --column name the same places: give one of them") }
        let keys = AddressKey.list(key ?? column ?? "")
        if key != nil || column != nil, keys.isEmpty { throw UsageError("--key names no key") }
        switch (style, shape) {
        case (.ecs, .csv?), (.ecs, .tsv?), (.ecs, .lines?), (.ecs, .zeek?):
            throw UsageError("--as ecs writes JSON lines: it reads JSON lines or eve.json (--input jsonl or eve)")
        case (.logfmt, .some(let given)) where given != .lines:
            throw UsageError("--as logfmt adds pairs to log lines: it reads lines (--input lines)")
        default: break
        }
        if style == .ecs {
            if !fields.isEmpty { throw UsageError("--as ecs writes ECS's own fields: it takes no --fields") }
            if let unmapped = keys.first(where: { $0.ecsSide == nil }) {
                throw UsageError(
                    "--as ecs: no ECS side for the key \(unmapped.written) "
                        + "(source.ip, destination.ip, client.ip, server.ip, src_ip, dest_ip…)")
            }
        }
        if style == .ecs, self.into != nil { throw UsageError("--as ecs writes ECS's own fields: it takes no --into") }
        let into = self.into ?? "ipdata"
        if into.isEmpty { throw UsageError("--into names no key") }
        if into == "{key}" || keys.contains(where: { $0.written == into || $0.lastStep == into }) {
            throw UsageError("--into \(into) would write over the address: name another key")
        }
        let paths = style == .ecs ? ECSFields.apiFields : fields.isEmpty ? Self.defaultFields : fields
        let fields = try FieldSelection(parsing: [paths.joined(separator: ",")])
        // A mistyped field is a usage error, before a key is needed or anything is sent.
        try fields.refuseUnknownNames(kind: .address, shape: .single)
        return Settings(common: common, shape: shape, style: style, keys: keys, into: into, fields: fields)
    }

    mutating func validate() throws {
        try checked { _ = try settings() }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let settings = try settings()
        let (common, fields) = (settings.common, settings.fields)
        guard inputs.count == 1 else { throw UsageError("enrich takes one input: a file, or - for standard input") }
        let input = inputs[0]
        let byName = input == "-" ? Shape.lines : Shape(path: input)
        let shape: Shape
        switch settings.style {
        case .plain: shape = settings.shape ?? byName
        case .ecs: shape = settings.shape ?? (byName == .eve ? .eve : .jsonl)
        case .logfmt: shape = .lines
        }
        if names, shape != .lines || !settings.keys.isEmpty {
            throw UsageError(
                "--names finds host names in log lines: in a column or under a key, names are resolved anyway")
        }
        if self.into != nil, shape != .jsonl, shape != .eve {
            throw UsageError("--into names a key of JSON lines: the input is \(shape.rawValue)")
        }
        let (client, cache) = try common.makeClientAndCache(environment: environment, console: console)
        defer { CacheReport.problem(of: cache, to: console) }
        if input != "-", !FileManager.default.isReadableFile(atPath: input) {
            throw CommandError(.usage, "cannot read \(input)")
        }
        let enricher = Enricher(
            shape: shape, detectsZeek: settings.shape == nil && settings.style == .plain, style: settings.style,
            fields: fields.paths,
            keys: settings.keys, into: settings.into, forTerminal: Terminal.showsOutput(at: common.outputPath),
            findsNames: names)
        let source = EnrichSource(path: input, enricher: enricher)
        if dryRun {
            // Every address of every line, repeats included; nothing is written.
            let estimate = try await DryRun.count(
                EnrichInput(source: source, queue: nil, resolver: HostResolver()), cache: cache,
                fields: fields.topLevelNames)
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
        let resolver = HostResolver()
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
            let addresses = EnrichInput(source: source, queue: queue, resolver: resolver)
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
