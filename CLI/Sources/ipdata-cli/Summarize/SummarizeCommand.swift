import ArgumentParser
import CLILibC
import DiskCache
import Foundation
import IPData
import IPDataTesting

/// `ipdata summarize [FILE…|-]`: the totals, top countries, networks and company types, threat
/// counts and top addresses of a list: addresses, which it looks up (in bulk, as `ipdata bulk`),
/// or the records `ipdata bulk` and `ipdata enrich` already wrote, which it reads without a
/// request; with `--html FILE`, the same as an offline HTML page with a world map.
struct SummarizeCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "totals, top countries and networks, threats of a list",
        usage: "ipdata summarize [OPTIONS] [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Summarize a list of addresses: totals (unique, public, private), the top countries,
            networks (ASN and name) and company types, threat counts (Tor, VPN, proxy, data
            centre, known attackers and abusers), blocklists, and the top addresses with their
            count, country, network and threat flags.

            Each line is an address, which is looked up (in bulk requests, as ipdata bulk does), or
            a record that ipdata bulk or ipdata enrich wrote, which is read as it is: no request,
            no key. Records are JSON lines (enrich's data under "ipdata"), or CSV or TSV whose
            header has an ip column and data columns (country_code, asn.name, error, ipdata_error
            …); a CSV with an ip column and no data columns is a list of addresses. A record is
            looked up again only when it has no answer: its error field or column is set and its
            address is public (a failed or cut-short run); the fields a record lacks (a bulk run
            with --fields ip,country_code has no threat) are not counted, never fetched. Each
            distinct address is sent once; private and reserved ones are answered locally, never
            sent. Memory grows with the distinct values only, whatever the number of lines.

            When the API refuses further lookups (the quota is exhausted: exit status 4), the
            rest of the input is still read and the summary is written, its first line saying
            that it is partial and how many records were not looked up.

            --html FILE also writes the summary as one HTML page that works offline and fetches
            nothing: a world map shaded by country, bars of the top networks, company types and
            threats, and the top addresses with their flags.

              ipdata grep -o --public access.log | ipdata summarize
              ipdata bulk ips.txt > records.jsonl && ipdata summarize records.jsonl
              ipdata summarize --format json --top 5 records.jsonl
              ipdata enrich hosts.csv --output hosts-enriched.csv && ipdata summarize hosts-enriched.csv
              ipdata summarize --html report.html records.jsonl
            """))

    @Option(help: ArgumentHelp("how many of each list to show, 1 to 1000 (default 10)", valueName: "N"))
    var top: String?

    @Option(
        help: ArgumentHelp("table or json (default: table)", valueName: "FORMAT"), completion: .list(["table", "json"]))
    var format: String?

    @Option(
        help: ArgumentHelp(
            "also write the summary as an offline HTML page with a world map to FILE", valueName: "FILE"),
        completion: .file(extensions: ["html"]))
    var html: String?

    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(BulkCommand.dryRunHelp))
    var dryRun = false

    @OptionGroup var endpoint: EndpointOptions
    @OptionGroup var client: ClientOptions

    @Argument(help: ArgumentHelp("files of addresses or records; - or none: standard input"), completion: .file())
    var files: [String] = []

    var isQuiet: Bool { client.quiet }

    /// The options, checked: the common ones, `--top`, and whether `--format` is json.
    private func settings() throws -> (common: CommonOptions, top: Int, asJSON: Bool) {
        let common = try CommonOptions(client: client, endpoint: endpoint)
        let top = try CommonOptions.wholeNumber(top, option: "top", in: 1...1_000) ?? 10
        switch format?.lowercased() {
        case nil, "table"?: return (common, top, false)
        case "json"?: return (common, top, true)
        default: throw UsageError("--format must be table or json")
        }
    }

    mutating func validate() throws {
        try checked {
            _ = try settings()
            if html == "" { throw UsageError("--html needs a file name") }
        }
    }

    /// Fails before any lookup when the HTML report could not be written: its folder is missing
    /// or not writable.
    private func checkReportTarget() throws {
        guard let html else { return }
        let url = URL(fileURLWithPath: html)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw CommandError(.usage, "cannot write \(html): it is a folder")
        }
        let folder = url.deletingLastPathComponent().path
        guard access(folder, W_OK) == 0 else {
            throw CommandError(.usage, "cannot write \(html): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes the HTML report of `summary` to `--html`'s file, whole or not at all.
    private func writeReport(_ summary: Summary, top: Int, cost: Summary.Cost, console: Console) throws {
        guard let html else { return }
        let page = HTMLReport(summary: summary, top: top, cost: cost).html()
        do {
            try Data(page.utf8).write(to: URL(fileURLWithPath: html), options: .atomic)
        } catch {
            throw CommandError(.usage, "cannot write \(html): \(error.localizedDescription)")
        }
        console.note("wrote the HTML report to \(html)")
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let (common, top, asJSON) = try settings()
        let inputs = files.isEmpty ? ["-"] : files
        if inputs.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading addresses or records from standard input; end with Ctrl-D")
        }
        // Addresses need a key; records do not. A missing key is said when the first address comes.
        var keyProblem: (any Error)?
        let fields = ["ip", "country_name", "country_code", "asn", "company", "threat"]
        let client: IPDataClient
        var cache: SQLiteLookupStore?
        do {
            (client, cache) = try common.makeClientAndCache(environment: environment, console: console)
        } catch let error as UsageError {
            throw error
        } catch {
            keyProblem = error
            // Never sends: the input stops at the first address, with `keyProblem`.
            client = IPDataClient(apiKey: "", configuration: .init(connection: .transport(IPDataSandbox())))
        }
        let summary = Locked(Summary())
        if dryRun {
            // The addresses to look up, every one of them; records cost nothing and are only read.
            var addresses = SummaryInput(
                inputs: inputs, summary: summary, keyProblem: nil, lookupsStopped: Locked(false))
            addresses.dedupes = false
            let estimate = try await DryRun.count(addresses, cache: cache, fields: fields)
            console.printOutput(estimate.text(singleLookups: false) + "\n")
            return .success
        }
        try checkReportTarget()
        let lookupsStopped = Locked(false)
        let input = SummaryInput(
            inputs: inputs, summary: summary, keyProblem: keyProblem, lookupsStopped: lookupsStopped)
        defer { CacheReport.problem(of: cache, to: console) }
        let cost = Locked(Summary.Cost())
        var options = LookupStreamOptions(onEvent: { event in
            cost.withLock { cost in
                switch event {
                case .requestSent(let addresses):
                    (cost.sent, cost.requests) = (cost.sent + addresses, cost.requests + 1)
                case .switchedToSingleLookups: cost.singleLookups = true
                }
            }
        })
        options.sendsNonPublicAddresses = false
        let stream = client.lookupStream(input, fields: fields, options: options)
        var failures = LookupFailures()
        var quotaStop: IPDataError?
        for try await result in stream {
            if let error = result.error {
                if error.stopsTheRun {
                    // A refused key leaves nothing to summarize; an exhausted quota (403) leaves
                    // the answers so far: the input is read on, its addresses not looked up.
                    guard error.exitStatus == .quotaExhausted else { throw error }
                    if quotaStop == nil {
                        quotaStop = error
                        lookupsStopped.withLock { $0 = true }
                        console.error(error.commandLineMessage)
                        summary.withLock {
                            $0.partialReason =
                                "the API refused further lookups (\(console.oneLine(error.commandLineMessage)))"
                        }
                    }
                    summary.withLock { $0.add(lookedUp: result.ip, response: nil, refused: true) }
                    continue
                }
                // An address the API rejects (a private one) is part of the summary, not a failure.
                if error.exitStatus != .lookupFailed { failures.record(error) }
            }
            summary.withLock { $0.add(lookedUp: result.ip, response: result.response) }
        }
        var spent = cost.withLock { $0 }
        spent.cached = cache?.hits ?? 0
        let (text, total, failed, unique) = summary.withLock {
            (asJSON ? $0.json(top: top, cost: spent) : $0.table(top: top, cost: spent), $0.total, $0.failed, $0.unique)
        }
        if total > 0, failed == total, unique == 0 {
            throw CommandError(
                .usage,
                "nothing in \(inputs == ["-"] ? "standard input" : inputs.joined(separator: ", ")) is an address or a "
                    + "record: summarize reads addresses one a line, the JSON lines of ipdata bulk or enrich, or CSV "
                    + "with an ip column (for the addresses in a log, ipdata grep -o FILE | ipdata summarize)")
        }
        console.printOutput(text)
        try writeReport(summary.withLock { $0 }, top: top, cost: spent, console: console)
        if spent.cached > 0 { console.note(CacheReport.notice(spent.cached)) }
        let notLookedUp = summary.withLock { $0.notLookedUp }
        if quotaStop == nil, notLookedUp > 0 {
            console.note(
                "\(notLookedUp) record\(notLookedUp == 1 ? "" : "s") without an answer \(notLookedUp == 1 ? "was" : "were")"
                    + " not looked up again: no API key (ipdata init, IPDATA_API_KEY or --api-key)")
        }
        failures.report(to: console, what: "the summary counts them as without an answer")
        // A dead server or a server error is not summarised away: its exit status says so; a
        // partial summary exits as an exhausted quota does.
        if let quotaStop { return failures.status.combined(with: quotaStop.exitStatus) }
        return failures.status
    }
}

/// The lines of `summarize`'s inputs: records (JSON lines, CSV rows with data columns) go
/// straight into the summary; addresses are handed on, to be looked up, each distinct one once.
struct SummaryInput: AsyncSequence, Sendable {
    typealias Element = String

    let inputs: [String]
    let summary: Locked<Summary>
    /// Why addresses cannot be looked up (no key), thrown at the first one.
    let keyProblem: (any Error)?
    /// Set when the API refused further lookups (an exhausted quota): the input is read on, and
    /// each address that would have been looked up is counted as not looked up.
    let lookupsStopped: Locked<Bool>
    /// Whether a repeated address is counted with its first answer rather than handed on again
    /// (the dry run counts every one).
    var dedupes = true

    /// The most lines one CSV record may span, and the most bytes it may hold.
    static let maximumRecordLines = 10_000
    static let maximumRecordBytes = 1 << 20

    func makeAsyncIterator() -> Iterator {
        Iterator(input: self)
    }

    /// The columns of a CSV or TSV input, read from its header row.
    struct CSVLayout {
        let separator: Character
        /// Each column's name, lower-cased; the last of a repeated name is the one read (ipdata
        /// enrich adds its columns after the input's).
        let columns: [String: Int]
        let address: Int
        /// Whether the rows are records (they have data columns) rather than addresses to look up.
        let isRecords: Bool

        /// The layout of `header`, when it is a header row with an `ip` column.
        init?(header line: String) {
            let separator: Character = line.contains("\t") && !line.contains(",") ? "\t" : ","
            let names = CSVRecord.fields(line, separator: separator).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard names.count > 1 || names == ["ip"], !names.contains(where: { IPAddress($0) != nil }) else {
                return nil
            }
            var columns: [String: Int] = [:]
            for (index, name) in names.enumerated() { columns[name] = index }
            guard let address = names.firstIndex(of: "ip") else { return nil }
            self.separator = separator
            self.columns = columns
            self.address = address
            isRecords = names.contains { name in
                ["error", "ipdata_error", "country_code", "country_name"].contains(name) || name.hasPrefix("asn.")
                    || name.hasPrefix("company.") || name.hasPrefix("threat.")
            }
        }

        /// The digest of a row, nil when its error column (`ipdata_error`, else `error`) is set.
        func digest(_ fields: [String]) -> Summary.Digest? {
            func cell(_ name: String) -> String? {
                guard let index = columns[name], index < fields.count else { return nil }
                let text = fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            }
            if cell(columns["ipdata_error"] != nil ? "ipdata_error" : "error") != nil { return nil }
            return Summary.Digest(record: { cell($0).map(JSONValue.string) })
        }
    }

    struct Iterator: AsyncIteratorProtocol {
        let input: SummaryInput
        private var next = 0
        private var reader: LineReader?
        private var name = ""
        private var lineNumber = 0
        private var isFirstLine = true
        private var layout: CSVLayout?

        init(input: SummaryInput) {
            self.input = input
        }

        mutating func next() async throws -> String? {
            while true {
                if reader == nil {
                    guard next < input.inputs.count else { return nil }
                    let path = input.inputs[next]
                    next += 1
                    reader =
                        path == "-" ? LineReader.standardInput(expected: "text") : try LineReader.file(atPath: path)
                    (name, lineNumber, isFirstLine, layout) = (path == "-" ? "standard input" : path, 0, true, nil)
                }
                guard let reader, var line = try await reader.nextLine() else {
                    reader = nil
                    continue
                }
                lineNumber += 1
                if lineNumber == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
                let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                if isFirstLine {
                    isFirstLine = false
                    if !trimmed.hasPrefix("{"), let header = CSVLayout(header: trimmed) {
                        layout = header
                        continue
                    }
                }
                let address: String
                if let layout {
                    let fields = try await record(startingWith: line, from: reader, separator: layout.separator)
                    let ip =
                        layout.address < fields.count
                        ? fields[layout.address].trimmingCharacters(in: .whitespacesAndNewlines) : ""
                    if layout.isRecords {
                        let digest = layout.digest(fields)
                        if digest == nil, let again = lookUpAgain(ip) { return again }
                        if digest == nil, isPublic(ip) { continue }
                        input.summary.withLock { $0.add(address: ip, digest: digest) }
                        continue
                    }
                    address = ip
                } else if trimmed.hasPrefix("{") {
                    guard let unanswered = addRecord(trimmed) else { continue }
                    if let again = lookUpAgain(unanswered) { return again }
                    continue
                } else {
                    address = trimmed
                }
                if let keyProblem = input.keyProblem {
                    guard IPAddress(address)?.scope != .public else { throw keyProblem }
                    // Private, reserved or no address: answered here as a lookup would be, no key needed.
                    if input.summary.withLock({ $0.shouldLookUp(address) }) {
                        input.summary.withLock { $0.add(lookedUp: address, response: nil) }
                    }
                    continue
                }
                if let next = handOn(address) { return next }
            }
        }

        /// Whether `ip` is a public address: one whose record without an answer is looked up again.
        private func isPublic(_ ip: String) -> Bool {
            IPAddress(ip)?.scope == .public
        }

        /// `address`, when it goes on to be looked up: its first reading, while lookups go on.
        /// A repeat is counted with its first reading; after the API refused further lookups, a
        /// new public address is counted as not looked up (a private one as answered locally).
        private func handOn(_ address: String) -> String? {
            if input.lookupsStopped.withLock({ $0 }) {
                let isNew = input.summary.withLock { $0.shouldLookUp(address) }
                if isNew {
                    let refused = isPublic(address)
                    input.summary.withLock { $0.add(lookedUp: address, response: nil, refused: refused) }
                }
                return nil
            }
            if input.dedupes, !input.summary.withLock({ $0.shouldLookUp(address) }) { return nil }
            return address
        }

        /// The public address of a record without an answer, to look up again; nil when it is
        /// not public (counted as without an answer, as the API would have it), or when it cannot
        /// be looked up (no key: counted as not looked up).
        private func lookUpAgain(_ ip: String) -> String? {
            guard isPublic(ip) else { return nil }
            guard input.keyProblem == nil else {
                input.summary.withLock { $0.addNotLookedUp(address: ip) }
                return nil
            }
            return handOn(ip)
        }

        /// Adds a JSON line: a record of ipdata bulk (`ip` and the answer's fields, or `error`),
        /// or a line of ipdata enrich (its data, or `error`, under `ipdata`). Returns the address
        /// of a record with an error and a public address, not added: it is to be looked up.
        private func addRecord(_ line: String) -> String? {
            guard case .object(let object)? = try? JSONParser.parse(Data(line.utf8)) else {
                input.summary.withLock { $0.addUnreadable() }
                return nil
            }
            var ip = ""
            if case .string(let text)? = object["ip"] { ip = text }
            let data: Record
            if case .object(let enriched)? = object["ipdata"] {
                data = enriched
            } else if object["ip"] != nil {
                data = object
            } else {
                input.summary.withLock { $0.addUnreadable() }
                return nil
            }
            let failed: Bool
            switch data["error"] {
            case nil, .null?: failed = false
            default: failed = true
            }
            // A flat key (`"asn.name"`, as enrich writes them) or a nested one (bulk's).
            if failed, isPublic(ip) { return ip }
            let digest = failed ? nil : Summary.Digest(record: { data[$0] ?? data.value(at: $0) })
            input.summary.withLock { $0.add(address: ip, digest: digest) }
            return nil
        }

        /// The fields of the CSV record that starts with `line`, over as many lines as its quoted
        /// fields span, within `maximumRecordLines` and `maximumRecordBytes`.
        private mutating func record(startingWith line: String, from reader: LineReader, separator: Character)
            async throws -> [String]
        {
            var record = line
            let first = lineNumber
            if CSVRecord.isOpen(record) {
                var isOpen = true
                while isOpen {
                    guard lineNumber - first < SummaryInput.maximumRecordLines - 1,
                        record.utf8.count < SummaryInput.maximumRecordBytes, let more = try await reader.nextLine()
                    else {
                        throw CommandError(
                            .usage,
                            "line \(first) of \(name) has an unbalanced quote (a CSV record ends within "
                                + "\(SummaryInput.maximumRecordLines) lines and 1 MiB)")
                    }
                    lineNumber += 1
                    record += "\n" + more
                    if CSVRecord.isOpen(more) { isOpen.toggle() }
                }
            }
            return CSVRecord.fields(record, separator: separator)
        }
    }
}
