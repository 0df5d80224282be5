import CLILibC
import DiskCache
import Foundation
import IPData

/// `ipdata bulk [FILE…|-]`: looks up every address of files or standard input, any number of
/// them, through `client.lookupStream`: bulk requests of up to 100 addresses, `--concurrency` of
/// them in flight, results written in input order as they complete, memory bounded.
enum BulkCommand {
    static let columnOption = OptionSpec(
        "column", value: "NAME|N",
        help: "the CSV column of the addresses: a header name, or a number from 1 (default 1)")
    static let concurrencyOption = OptionSpec(
        "concurrency", value: "N", help: "requests in flight at once, 1 to 100 (default 4)")
    static let noProgressOption = OptionSpec("no-progress", help: "no progress bar on standard error")
    static let resumeOption = OptionSpec(
        "resume",
        help: "continue the run whose output --output names, from the partial output it left if it stopped: keep "
            + "its answered records and look up only the addresses it lacks (or failed), every record in input "
            + "order (jsonl or csv)")
    static let maximumAddressesOption = OptionSpec(
        "max-addresses", value: "N",
        help: "the most addresses one range (8.8.8.0/29, 8.8.8.1-8.8.8.6) may hold, 1 to 1,000,000 (default "
            + "\(AddressReader.defaultMaximumRangeAddresses)); a larger one is a failed record, and nothing of it "
            + "is looked up")
    static let dryRunOption = OptionSpec(
        "dry-run",
        help: "send nothing: print on standard output how many addresses the input holds, how many are "
            + "distinct, how many the cache answers, and the requests the run would send")
    /// `--format` as bulk reads it: the same option, whose default here is JSON lines whatever
    /// the number of addresses.
    static let formatOption = OptionSpec(
        CommonOptions.format.name, value: CommonOptions.format.valueName,
        help: "\(OutputFormat.names) (default: jsonl, one JSON object per line)")

    static let options =
        [columnOption, concurrencyOption, noProgressOption, maximumAddressesOption, resumeOption, dryRunOption]
        + CommonOptions.specs.map { $0.name == formatOption.name ? formatOption : $0 }

    static let help = HelpText(
        usage: ["ipdata bulk [OPTIONS] [FILE… | -]"],
        summary: """
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
            """,
        options: options,
        footer: """
            Output is JSON lines unless --format says otherwise. Every input line other than blank
            lines and comments gets a record, in input order. Standard error shows a progress bar
            when it is a terminal, and a summary at the end. With --output, the file is replaced
            only when the run completes; a run that stops (a refused key, an exhausted quota,
            Ctrl-C), or in which no lookup reached the API, leaves it as it was and says where the
            partial output is, and the command that goes on from it (--resume). A device or FIFO
            (/dev/null) is written in place. An interrupted json array is closed, so it still
            parses. `ipdata help` lists the sample addresses of --sandbox.
            \(ExitStatus.helpText)
            """)

    static func run(_ parsed: ParsedArguments, environment: [String: String], console: Console) async throws
        -> ExitStatus
    {
        let common = try CommonOptions(parsed)
        try common.selection?.refuseUnknownNames(kind: .address, shape: .list)
        let column = try parsed.value(columnOption.name).map(ColumnSelection.init(parsing:)) ?? .first
        let concurrency = try parsed.value(concurrencyOption.name).map(Self.concurrency(parsing:)) ?? 4
        let maximumRange =
            try CommonOptions.wholeNumber(parsed, maximumAddressesOption, in: 1...1_000_000, unit: "")
            ?? AddressReader.defaultMaximumRangeAddresses
        let inputs = parsed.positionals.isEmpty ? ["-"] : parsed.positionals
        try checkReadable(inputs)
        let (client, cache) = try common.makeClientAndCache(environment: environment, console: console)
        let resumes = parsed.has(resumeOption.name)
        let csv = parsed.has(columnOption.name)
        if parsed.has(dryRunOption.name) {
            if resumes { throw UsageError("use --dry-run or --resume, not both") }
            let reader = AddressReader(inputs: inputs, column: column, csv: csv, maximumRangeAddresses: maximumRange)
            let estimate = try await DryRun.count(reader, cache: cache, fields: common.selection?.topLevelNames)
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
        } else {
            writer = try common.makeWriter(kind: .address, shape: .list, inputs: inputs)
        }
        if [.jsonl, .csv].contains(common.format ?? .jsonl) {
            OutputSink.current?.setResumeCommand(ResumedOutput.command(continuing: parsed, options: options))
        }

        let ledger = InputLedger()
        var addresses = AddressReader(inputs: inputs, column: column, csv: csv, ledger: ledger)
        addresses.maximumRangeAddresses = maximumRange
        addresses.skipped = skipped
        if let resumed { addresses.onSkip = { key in resumed.passedOver(key, before: ledger.appended) } }
        // Neither with --quiet, nor with --verbose, whose request lines would cut through it.
        let showsBar = Progress.shouldShowBar(
            noProgress: parsed.has(noProgressOption.name) || common.isQuiet || common.isVerbose)
        // The bar shows a percentage when the total can be counted first: regular files only.
        let total =
            showsBar && inputs.allSatisfy(isRegularFile)
            ? try await count(
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
        progress.cacheHits = cache.map { cache in { cache.hits } }
        let stream = client.lookupStream(addresses, fields: common.selection?.topLevelNames, options: options)
        var lookup = StreamingLookup(
            selection: common.selection,
            writer: progress.writer(
                clearingTheBarBefore: writer,
                recordsOnStandardOutput: OutputSink.current?.writesToStandardOutput ?? true),
            progress: progress, console: console)
        lookup.ledger = ledger
        lookup.inputs = inputs
        lookup.printsSummary = true
        if case .name = column { lookup.inputsHaveHeaders = true }
        defer { CacheReport.problem(of: cache, to: console) }
        do {
            return try await lookup.run(stream)
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
