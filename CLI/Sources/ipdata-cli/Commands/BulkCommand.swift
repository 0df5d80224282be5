import ArgumentParser
import CLILibC
import DiskCache
import Foundation
import IPData

/// `ipdata bulk [FILE…|-]`: looks up every address of files or standard input, any number of
/// them, through `client.lookupStream`: bulk requests of up to 100 addresses, `--concurrency` of
/// them in flight, results written in input order as they complete, memory bounded. With the
/// disk cache, the cached addresses are answered before the stream (`CacheFirstLookup`).
struct BulkCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "bulk",
        abstract: "look up every address of files or standard input",
        usage: "ipdata bulk [OPTIONS] [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Look up every address in the files (or standard input, `-`, the default), any number of
            them: in bulk requests of up to 100 addresses, results in input order as they arrive.

            Each line is an address, a range (8.8.8.0/29, 8.8.8.1-8.8.8.6: its addresses in order, at
            most --max-addresses), or a CSV row whose first column (or --column) is one. With
            --column NAME the first row of each file is its header. Blank lines and lines starting
            with # are skipped. An address the API rejects becomes a record with an "error" field,
            and the run goes on. When the plan does not allow bulk requests, the addresses are
            looked up one by one, and a notice says so.

              ipdata bulk ips.txt
              ipdata bulk --column ip --format csv --fields ip,country_code,asn.name hosts.csv
              zcat ips.txt.gz | ipdata bulk --format csv -f ip,country_code,threat.is_threat > out.csv

            A host name in place of an address (example.com, localhost: a dotted name ending in a
            top-level domain's letters) is resolved by the system resolver, A and AAAA, each name
            once a run: each of its addresses gets a record with "host" first, in the resolver's
            order (--fields host adds the column to CSV). A name that does not resolve is an error
            record, and nothing is sent for it. --dry-run resolves names, to count their addresses.

              ipdata bulk -f ip,host,country_code --format csv domains.txt

            With --where EXPR, only the records whose answer matches the expression are printed
            (ipdata help filter lists what it may say); a failed record never matches, and the
            summary still counts it. --blocklist prints no records but the matching addresses (all
            those answered, without --where), merged into the fewest CIDRs at the end: cidr, one a
            line; ipset, a file for ipset restore that creates, empties and fills the hash:net sets
            NAME and NAME6 (--set-name, default ipdata_blocklist); nft, the sets NAME and NAME6 of
            table inet filter, with flags interval, for nft -f.

              ipdata bulk --where 'threat.is_tor' --blocklist ipset ips.txt > tor.ipset

            Output is JSON lines unless --format says otherwise. Every input line other than blank
            lines and comments gets a record, in input order. Standard error shows a progress bar
            when it is a terminal, and a summary at the end. With --output, the file is replaced
            only when the run completes; a run that stops (a refused key, an exhausted quota,
            Ctrl-C), or in which no lookup reached the API, leaves it as it was and says where the
            partial output is, and the command that goes on from it (--resume). A device or FIFO
            (/dev/null) is written in place. An interrupted json array is closed, so it still
            parses. `ipdata help` lists the sample addresses of --sandbox.
            \(ExitStatus.helpText)
            """))

    /// The help of `--dry-run`, which the lookup, enrich and summarize take too.
    static let dryRunHelp =
        "send nothing: print on standard output how many addresses the input holds, how many are "
        + "distinct, how many the cache answers, and the requests the run would send"

    @Option(
        help: ArgumentHelp(
            "the CSV column of the addresses: a header name, or a number from 1 (default 1)", valueName: "NAME|N"))
    var column: String?

    @Option(help: ArgumentHelp("requests in flight at once, 1 to 100 (default 4)", valueName: "N"))
    var concurrency: String?

    @Flag(name: .customLong("no-progress"), help: "no progress bar on standard error")
    var noProgress = false

    @Option(
        name: .customLong("max-addresses"),
        help: ArgumentHelp(
            "the most addresses one range (8.8.8.0/29, 8.8.8.1-8.8.8.6) may hold, 1 to 1,000,000 (default "
                + "\(AddressReader.defaultMaximumRangeAddresses)); a larger one is a failed record, and nothing of it "
                + "is looked up",
            valueName: "N"))
    var maxAddresses: String?

    @Flag(
        help: ArgumentHelp(
            "continue the run whose output --output names, from the partial output it left if it stopped: keep "
                + "its answered records and look up only the addresses it lacks (or failed), every record in input "
                + "order (jsonl or csv)"))
    var resume = false

    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(dryRunHelp))
    var dryRun = false

    @Option(
        name: [.short, .long], help: ArgumentHelp(CommonOptions.fieldsHelp, valueName: "a,b,c"),
        completion: CompletionCommand.fieldListCompletion)
    var fields: [String] = []

    /// The lookup's `--format`, whose default here is JSON lines whatever the number of addresses.
    @Option(
        help: ArgumentHelp("\(OutputFormat.names) (default: jsonl, one JSON object per line)", valueName: "FORMAT"),
        completion: .list(OutputFormat.allCases.map(\.rawValue)))
    var format: String?

    @Option(help: ArgumentHelp(CommonOptions.outputHelp, valueName: "FILE"), completion: .file())
    var output: String?

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "print only the records whose answer matches an expression, such as 'threat.is_tor or "
                + "threat.scores.threat_score >= 80' (see ipdata help filter); failed records are left out",
            valueName: "EXPR"))
    var condition: String?

    @OptionGroup var blocklistOptions: BlocklistOptions
    @OptionGroup var flush: FlushIntervalOptions
    @OptionGroup var endpoint: EndpointOptions
    @OptionGroup var client: ClientOptions

    @Argument(help: ArgumentHelp("files of addresses; - or none: standard input"), completion: .file())
    var files: [String] = []

    var isQuiet: Bool { client.quiet }

    /// What the options say, checked.
    private struct Settings {
        let common: CommonOptions
        let column: ColumnSelection
        let concurrency: Int
        let maximumRange: Int
        /// `--where`, `--blocklist` and `--set-name`.
        var condition: WhereExpression?
        var blocklist: BlocklistFormat?
        var setName = BlocklistFormat.defaultSetName

        /// The fields to send as `fields=`: those `--fields` selects and those `--where` reads;
        /// for `--blocklist`, the address and those `--where` reads. nil for every field.
        var sentFields: [String]? {
            let read = condition.map { WhereExpression.topLevelNames(of: $0.paths) } ?? []
            if blocklist != nil { return WhereExpression.topLevelNames(of: ["ip"] + read) }
            guard let selected = common.selection?.topLevelNames else { return nil }
            return WhereExpression.topLevelNames(of: selected + read)
        }
        let flushInterval: TimeInterval
    }

    private func settings() throws -> Settings {
        let common = try CommonOptions(
            client: client, endpoint: endpoint, fields: fields, format: format, output: output)
        try common.selection?.refuseUnknownNames(kind: .address, shape: .list)
        let settings = Settings(
            common: common, column: try column.map(ColumnSelection.init(parsing:)) ?? .first,
            concurrency: try concurrency.map(Self.concurrency(parsing:)) ?? 4,
            maximumRange: try CommonOptions.wholeNumber(maxAddresses, option: "max-addresses", in: 1...1_000_000)
                ?? AddressReader.defaultMaximumRangeAddresses,
            flushInterval: try flush.seconds())
        if dryRun, resume { throw UsageError("use --dry-run or --resume, not both") }
        return try Self.withFiltering(
            settings, condition: condition, blocklist: try blocklistOptions.checked(), resume: resume)
    }

    /// `settings` with what `--where`, `--blocklist` and `--set-name` say, checked.
    private static func withFiltering(
        _ settings: Settings, condition: String?, blocklist: (format: BlocklistFormat, setName: String)?,
        resume: Bool
    ) throws -> Settings {
        var settings = settings
        do {
            settings.condition = try condition.map { try WhereParser.parse($0) }
        } catch let error as WhereError {
            throw error.usageError
        }
        if let blocklist {
            (settings.blocklist, settings.setName) = (blocklist.format, blocklist.setName)
            if settings.common.format != nil || settings.common.selection != nil {
                throw UsageError("--blocklist prints addresses, not records: leave out --format and --fields")
            }
        }
        // A filtered output holds no record of the addresses left out, which --resume would send again.
        if resume, settings.condition != nil || settings.blocklist != nil {
            throw UsageError("--resume continues every record of a run: leave out --where and --blocklist")
        }
        return settings
    }

    mutating func validate() throws {
        try checked { _ = try settings() }
    }

    /// The command line that continues this run (`--resume`, and the same options and inputs,
    /// the key left out), without `ipdata bulk`.
    var resumeArguments: [String] {
        var words = ["--resume"]
        func add(_ name: String, _ values: [String]) { for value in values { words += ["--" + name, value] } }
        func add(_ name: String, _ flag: Bool) { if flag { words.append("--" + name) } }
        add("column", column.map { [$0] } ?? [])
        add("concurrency", concurrency.map { [$0] } ?? [])
        add("no-progress", noProgress)
        add("max-addresses", maxAddresses.map { [$0] } ?? [])
        add("flush-interval", flush.flushInterval.map { [$0] } ?? [])
        add("dry-run", dryRun)
        add("fields", fields)
        add("format", format.map { [$0] } ?? [])
        add("output", output.map { [$0] } ?? [])
        add("api-key", client.apiKey.map { _ in ["KEY"] } ?? [])
        add("eu", endpoint.eu)
        add("base-url", endpoint.baseURL.map { [$0] } ?? [])
        add("sandbox", client.sandbox)
        add("retries", client.retries.map { [$0] } ?? [])
        add("resend-bulk", client.resendBulk)
        add("timeout", client.timeout.map { [$0] } ?? [])
        add("no-cache", client.noCache)
        add("quiet", client.quiet)
        add("verbose", client.verbose)
        return words
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let settings = try settings()
        let (common, column, concurrency, maximumRange) =
            (settings.common, settings.column, settings.concurrency, settings.maximumRange)
        let inputs = files.isEmpty ? ["-"] : files
        try Self.checkReadable(inputs)
        // The cache is read before the client (`CacheFirstLookup`), which only fills it.
        let (client, cache) = try common.makeClientAndCache(
            environment: environment, console: console, clientReadsCache: false)
        let resumes = resume
        let csv = self.column != nil
        if dryRun {
            var reader = AddressReader(inputs: inputs, column: column, csv: csv, maximumRangeAddresses: maximumRange)
            reader.resolver = HostResolver()
            let estimate = try await DryRun.count(reader, cache: cache, fields: settings.sentFields)
            console.printOutput(estimate.text(singleLookups: false) + "\n")
            return .success
        }
        var skipped: Set<String> = []
        var resumed: ResumedOutput?
        let writer: RecordWriter
        if resumes {
            guard let outputPath = common.outputPath, outputPath != "-" else {
                throw UsageError("--resume needs --output FILE: the output of the run to continue")
            }
            let format = common.format ?? .jsonl
            guard format == .jsonl || format == .csv else { throw UsageError("--resume needs --format jsonl or csv") }
            let columns = Columns.columns(kind: .address, format: format, selection: common.selection, shape: .list)
            let sink = try common.openOutput(inputs: inputs)
            let output = try ResumedOutput.continuing(sink, outputPath: outputPath, format: format, columns: columns)
            skipped = output.done
            writer = output.writer(
                around: format == .csv
                    ? CSVWriter(columns: columns, sink: sink, headerWritten: output.copiedHeader)
                    : makeRecordWriter(format: format, shape: .list, columns: columns, sink: sink))
            // Kept by --quiet when it names partial outputs left as they were.
            if sink.partialOutputs.contains(where: { $0.path != output.source }) {
                console.warning(output.note)
            } else {
                console.note(output.note)
            }
            resumed = output
        } else if let blocklist = settings.blocklist {
            writer = BlocklistWriter(
                format: blocklist, setName: settings.setName, sink: try common.openOutput(inputs: inputs))
        } else {
            writer = try common.makeWriter(kind: .address, shape: .list, inputs: inputs, console: console)
        }
        let filtered = settings.condition.map { WhereRecordWriter(writer, expression: $0, selection: common.selection) }
        if settings.condition == nil, settings.blocklist == nil, [.jsonl, .csv].contains(common.format ?? .jsonl) {
            OutputSink.current?.setResumeCommand(ResumedOutput.command(arguments: resumeArguments, inputs: files))
        }

        // Input that may pause (a pipe, a terminal: `tail -f log | ipdata bulk -`) is written as it
        // comes: chunks are sent after --flush-interval, and nothing waits for a later answer.
        let mayPause = inputs.contains(where: Self.mayPause)
        let ledger = InputLedger(holdsRepeatsOfWrittenAddresses: !mayPause)
        var addresses = AddressReader(inputs: inputs, column: column, csv: csv, ledger: ledger)
        addresses.maximumRangeAddresses = maximumRange
        addresses.skipped = skipped
        addresses.resolver = HostResolver()
        if let resumed { addresses.onSkip = { key in resumed.passedOver(key, before: ledger.appended) } }
        // Neither with --quiet, nor with --verbose, whose request lines would cut through it.
        let showsBar = Progress.shouldShowBar(
            noProgress: noProgress || common.isQuiet || common.isVerbose)
        // The bar shows a percentage when the total can be counted first: regular files only.
        let total =
            showsBar && inputs.allSatisfy(Self.isRegularFile)
            ? try await Self.count(
                AddressReader(
                    inputs: inputs, column: column, csv: csv, maximumRangeAddresses: maximumRange, skipped: skipped))
            : nil
        if inputs.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading addresses from standard input, one per line; end with Ctrl-D")
        }
        let progress = Progress(console: console, showsBar: showsBar, total: total)
        let events = progress.events
        var options = LookupStreamOptions(
            concurrency: concurrency, fallsBackToSingleLookups: true, onEvent: { events.record($0) })
        // Records are written from the bytes the API sent, not from the decoded model.
        options.keepsJSON = true
        options.sendsNonPublicAddresses = false
        // A result is written soon after its line was read, even while the input pauses (`tail -f`).
        options.flushInterval = mayPause ? settings.flushInterval : nil
        progress.cacheHits = cache.map { cache in { cache.hits } }
        let fields = settings.sentFields
        var lookup = StreamingLookup(
            selection: common.selection,
            writer: progress.writer(
                clearingTheBarBefore: filtered ?? writer,
                recordsOnStandardOutput: OutputSink.current?.writesToStandardOutput ?? true),
            progress: progress, console: console)
        lookup.ledger = ledger
        lookup.inputs = inputs
        lookup.printsSummary = true
        if case .name = column { lookup.inputsHaveHeaders = true }
        defer { CacheReport.problem(of: cache, to: console) }
        defer { [filtered?.tally, (writer as? BlocklistWriter)?.tally].compactMap { $0 }.forEach(console.note) }
        do {
            guard let cache else {
                return try await lookup.run(client.lookupStream(addresses, fields: fields, options: options))
            }
            let outcomes = CacheFirstLookup(
                addresses, store: cache, fields: fields, concurrency: concurrency, isStopped: { ledger.isStopped },
                waitsForFullBatches: !mayPause,
                makeStream: { client.lookupStream($0, fields: fields, options: options) })
            return try await lookup.run(next: outcomes.next)
        } catch let error as CommandError {
            console.error(error.message)
            progress.printSummary()
            return error.status
        }
    }

    /// Reads `--concurrency`: a whole number from 1 to 100.
    static func concurrency(parsing text: String) throws -> Int {
        guard let value = Int(text), (1...100).contains(value) else {
            throw UsageError("--concurrency must be a whole number from 1 to 100")
        }
        return value
    }

    /// Fails at once, before any request, for an input that is missing or is a folder.
    private static func checkReadable(_ inputs: [String]) throws {
        for path in inputs where path != "-" {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CommandError(.usage, "cannot read \(path): no such file")
            }
            if isFolder.boolValue { throw CommandError(.usage, "cannot read \(path): it is a folder") }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw CommandError(.usage, "cannot read \(path): permission denied")
            }
        }
    }

    /// Whether reading `path` (`-`: standard input) may pause for more to be written: anything
    /// but a regular file (a pipe, a terminal, a FIFO).
    static func mayPause(_ path: String) -> Bool {
        var status = stat()
        let found = path == "-" ? fstat(STDIN_FILENO, &status) : stat(path, &status)
        return found != 0 || (status.st_mode & S_IFMT) != S_IFREG
    }

    private static func isRegularFile(_ path: String) -> Bool {
        guard path != "-" else { return false }
        return (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    private static func count(_ addresses: AddressReader) async throws -> Int {
        var count = 0
        for try await _ in addresses { count += 1 }
        return count
    }
}
