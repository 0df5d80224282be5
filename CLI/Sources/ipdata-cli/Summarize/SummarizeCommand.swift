import ArgumentParser
import CLILibC
import DiskCache
import Foundation
import IPData
import IPDataTesting

/// `ipdata summarize [FILE…|-]`: the totals, top countries, networks and company types, and
/// threat counts of a list: addresses, which it looks up (in bulk, as `ipdata bulk`), or the JSON
/// records `ipdata bulk` already wrote, which it reads without a request.
struct SummarizeCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "totals, top countries and networks, threats of a list",
        usage: "ipdata summarize [OPTIONS] [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Summarize a list of addresses: totals (unique, public, private), the top countries,
            networks (ASN and name) and company types, threat counts (Tor, VPN, proxy, data
            centre, known attackers and abusers) and blocklists.

            Each line is an address, which is looked up (in bulk requests, as ipdata bulk does), or
            a record that ipdata bulk or ipdata enrich wrote, which is read as it is: no request,
            no key. Records are JSON lines (enrich's data under "ipdata"), or CSV or TSV whose
            header has an ip column and data columns (country_code, asn.name, error, ipdata_error
            …); a CSV with an ip column and no data columns is a list of addresses. Each distinct
            address is sent once; private and reserved ones are answered locally, never sent.
            Memory grows with the distinct values only, whatever the number of lines.

              ipdata grep -o --public access.log | ipdata summarize
              ipdata bulk ips.txt > records.jsonl && ipdata summarize records.jsonl
              ipdata summarize --format json --top 5 records.jsonl
              ipdata enrich hosts.csv --output hosts-enriched.csv && ipdata summarize hosts-enriched.csv
            """))

    @Option(help: ArgumentHelp("how many of each list to show, 1 to 1000 (default 10)", valueName: "N"))
    var top: String?

    @Option(
        help: ArgumentHelp("table or json (default: table)", valueName: "FORMAT"), completion: .list(["table", "json"]))
    var format: String?

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
        try checked { _ = try settings() }
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
            var addresses = SummaryInput(inputs: inputs, summary: summary, keyProblem: nil)
            addresses.dedupes = false
            let estimate = try await DryRun.count(addresses, cache: cache, fields: fields)
            console.printOutput(estimate.text(singleLookups: false) + "\n")
            return .success
        }
        let input = SummaryInput(inputs: inputs, summary: summary, keyProblem: keyProblem)
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
        for try await result in stream {
            if let error = result.error {
                if error.stopsTheRun { throw error }
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
        if spent.cached > 0 { console.note(CacheReport.notice(spent.cached)) }
        failures.report(to: console, what: "the summary counts them as without an answer")
        // A dead server or a server error is not summarised away: its exit status says so.
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
                    guard !layout.isRecords else {
                        let digest = layout.digest(fields)
                        input.summary.withLock { $0.add(address: ip, digest: digest) }
                        continue
                    }
                    address = ip
                } else if trimmed.hasPrefix("{") {
                    addRecord(trimmed)
                    continue
                } else {
                    address = trimmed
                }
                if let keyProblem = input.keyProblem { throw keyProblem }
                if input.dedupes, !input.summary.withLock({ $0.shouldLookUp(address) }) { continue }
                return address
            }
        }

        /// Adds a JSON line: a record of ipdata bulk (`ip` and the answer's fields, or `error`),
        /// or a line of ipdata enrich (its data, or `error`, under `ipdata`).
        private func addRecord(_ line: String) {
            guard case .object(let object)? = try? JSONParser.parse(Data(line.utf8)) else {
                input.summary.withLock { $0.addUnreadable() }
                return
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
                return
            }
            let failed: Bool
            switch data["error"] {
            case nil, .null?: failed = false
            default: failed = true
            }
            // A flat key (`"asn.name"`, as enrich writes them) or a nested one (bulk's).
            let digest = failed ? nil : Summary.Digest(record: { data[$0] ?? data.value(at: $0) })
            input.summary.withLock { $0.add(address: ip, digest: digest) }
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
