import ArgumentParser
import DiskCache
import Foundation
import IPData

/// `ipdata [IP…|ASN]`: looks up the caller's own address, one or more IP addresses (several go
/// through bulk requests), the addresses piped to standard input, or an autonomous system;
/// `--field NAME` prints one field. The default command: no command word is a lookup.
struct LookupCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Look up IP addresses with the ipdata.co API: location, network, company and threat data.",
        usage: """
            ipdata [OPTIONS] [IP… | ASN]
            ipdata COMMAND [OPTIONS] …
            ipdata help [COMMAND]
            """,
        discussion: HelpProse.flowed(
            """
              ipdata                         your own IP address
              ipdata 8.8.8.8 1.1.1.1         IP addresses (several go in bulk requests)
              ipdata example.com             a host name's addresses (A and AAAA)
              cat ips.txt | ipdata           standard input's addresses, one a line
              ipdata AS15169                 an autonomous system
              ipdata 8.8.8.8 --field asn     one field, as the API returns it
              ipdata bulk ips.txt            a list of any size, files or standard input
              ipdata grep -o access.log      the addresses in any text (nothing sent)
              ipdata init                    store your API key

            \(commandList)

            The key comes from --api-key, else IPDATA_API_KEY, else $XDG_CONFIG_HOME/ipdata/config
            (~/.config/ipdata/config), which `ipdata init` writes. Requests go to --base-url, else
            IPDATA_BASE_URL, else https://api.ipdata.co. Run `ipdata help COMMAND` (or
            `ipdata COMMAND --help`) for a command's options. A mistyped command or field is a usage
            error that names the one meant. The options of --api-key to --verbose may come before
            the command word (ipdata --sandbox bulk ips.txt).
            On a terminal, errors start with a red `ipdata:`; NO_COLOR turns colour off.

            \(ExitStatus.helpText)

            \(SandboxHelp.text)
            """))

    /// The commands, each with what it does, as help lists them; from the command table, so
    /// that none is left out.
    static var commandList: String {
        let commands = IPDataCommand.commands
        let width = (commands.map { ($0.configuration.commandName ?? "").count }.max() ?? 0) + 2
        return "COMMANDS:\n"
            + commands.map { command in
                let name = command.configuration.commandName ?? ""
                return "  " + name + String(repeating: " ", count: width - name.count) + command.configuration.abstract
            }.joined(separator: "\n")
    }

    @Option(
        name: [.short, .long], help: ArgumentHelp(CommonOptions.fieldsHelp, valueName: "a,b,c"),
        completion: CompletionCommand.fieldListCompletion)
    var fields: [String] = []

    @Option(
        help: ArgumentHelp(
            "print one field as the API returns it, such as country_name or asn.name; of several addresses, "
                + "one line each: ADDRESS<TAB>VALUE, or ADDRESS<TAB><TAB>ERROR",
            valueName: "NAME"),
        completion: .list(CompletionCommand.fieldWords))
    var field: String?

    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(BulkCommand.dryRunHelp))
    var dryRun = false

    @Option(
        help: ArgumentHelp(CommonOptions.formatHelp, valueName: "FORMAT"),
        completion: .list(OutputFormat.allCases.map(\.rawValue)))
    var format: String?

    @Option(help: ArgumentHelp(CommonOptions.outputHelp, valueName: "FILE"), completion: .file())
    var output: String?

    @OptionGroup var flush: FlushIntervalOptions
    @OptionGroup var endpoint: EndpointOptions
    @OptionGroup var client: ClientOptions

    @Argument(
        help: ArgumentHelp(
            "IP addresses or host names (example.com: its addresses, each record naming it as \"host\"), "
                + "or one ASN (AS15169); none: your own address, or standard input's"))
    var targets: [String] = []

    var isQuiet: Bool { client.quiet }

    /// What the positional arguments ask for.
    enum Target: Equatable {
        case ownAddress
        case addresses([String])
        /// No arguments, and standard input is a pipe or a file: the addresses it holds, one a line.
        case standardInput
        case asn(String)

        /// The target of `arguments`; without any, the addresses of standard input when
        /// `readsStandardInput` (it is a pipe or a file), else the caller's own address.
        init(arguments: [String], readsStandardInput: Bool = false) throws {
            let commands = IPDataCommand.commandWords
            if let command = arguments.first(where: commands.contains) {
                let usage = command == "help" ? "ipdata help [COMMAND]" : "ipdata \(command) [OPTIONS] …"
                throw UsageError("\(command) is a command, not an address: \(usage)")
            }
            let asnCount = arguments.filter(Self.isASN).count
            if arguments.isEmpty {
                self = readsStandardInput ? .standardInput : .ownAddress
            } else if asnCount == 0 {
                self = .addresses(arguments)
            } else if arguments.count == 1 {
                self = .asn(arguments[0])
            } else {
                throw UsageError("look up one ASN at a time, and without IP addresses")
            }
        }

        /// An autonomous system as the library reads one: `AS15169`, `as15169` or `15169`.
        static func isASN(_ text: String) -> Bool {
            ASNumber.isASN(text)
        }

        /// What records of the target are, and whether there is one or a list.
        var records: (kind: RecordKind, shape: RecordShape) {
            switch self {
            case .asn: return (.asn, .single)
            case .addresses(let ips) where ips.count > 1: return (.address, .list)
            case .standardInput: return (.address, .list)
            case .addresses, .ownAddress: return (.address, .single)
            }
        }
    }

    /// The common options of the command line.
    func commonOptions() throws -> CommonOptions {
        try CommonOptions(client: client, endpoint: endpoint, fields: fields, format: format, output: output)
    }

    /// The options, checked.
    private func options() throws -> CommonOptions {
        let common = try commonOptions()
        _ = try flush.seconds()
        if let field {
            if common.selection != nil || common.format != nil {
                throw UsageError("--field prints one value: leave out --fields and --format")
            }
            guard !field.isEmpty,
                !field.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            else { throw UsageError("--field needs a field name, such as country_name or asn.name") }
        }
        return common
    }

    mutating func validate() throws {
        try checked { _ = try options() }
    }

    /// The target of the arguments, checked with the fields asked for. (Here rather than in
    /// `validate()`, so that an unknown option, which ArgumentParser finds after it, is said
    /// first: `ipdata --colum ip bulk` is not about `bulk`.)
    private func target(common: CommonOptions) throws -> Target {
        // `ipdata sumarize FILE` would look up `sumarize` and the file's name.
        if let first = targets.first, let meant = IPDataCommand.commandMeant(by: first) {
            throw UsageError("there is no command \(first): did you mean \(meant)?")
        }
        let target = try Target(arguments: targets, readsStandardInput: StandardInput.isPipeOrFile)
        // A mistyped field is a usage error, before a key is needed or anything is sent.
        if let field { try FieldSelection.refuseUnknownField(field, kind: target.records.kind) }
        try common.selection?.refuseUnknownNames(kind: target.records.kind, shape: target.records.shape)
        return target
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let common = try options()
        var target = try target(common: common)
        // `--field` asks for the field's top-level name only, and keeps those answers.
        let (client, cache) = try common.makeClientAndCache(environment: environment, console: console)
        defer { CacheReport.problem(of: cache, to: console) }
        // Host names among the arguments stand for their addresses (see `NamedArguments`).
        let resolver = HostResolver()
        var named: NamedArguments?
        if case .addresses(let texts) = target {
            named = await NamedArguments.resolving(texts, with: resolver)
            if let named { target = .addresses(named.texts) }
        }
        let shape = target.records.shape
        // One name that does not resolve: one line, as any single lookup's failure.
        if shape == .single, !dryRun, let problem = named?.entries.first?.problem {
            console.error(console.oneLine(problem))
            return .lookupFailed
        }
        if dryRun {
            let fields = field.map { [String($0.prefix { $0 != "." })] } ?? common.selection?.topLevelNames
            return try await Self.dryRun(target, cache: cache, fields: fields, resolver: resolver, console: console)
        }
        if let field {
            // To a terminal, control characters in the values are written out (see `FieldText`).
            let text = FieldText(forTerminal: Terminal.showsOutput(at: common.outputPath))
            return try await Self.printField(
                field, of: target, client: client, cache: cache, sink: common.openOutput(), text: text,
                resolver: resolver, console: console)
        }
        guard shape == .list else {
            return try await Self.lookUpOne(
                target, host: named?.entries.first?.host, client: client, common: common, console: console)
        }
        let progress = Progress(console: console, showsBar: false)
        let events = progress.events
        let fields = common.selection?.topLevelNames
        var options = LookupStreamOptions(onEvent: { events.record($0) })
        // Records are written from the bytes the API sent, not from the decoded model.
        options.keepsJSON = true
        options.sendsNonPublicAddresses = false
        // A result is written soon after its line was read, even while the input pauses (`tail -f`).
        options.flushInterval = try flush.seconds()
        let writer = try common.makeWriter(
            kind: .address, shape: .list, inputs: ["-"], console: console, namesHosts: named != nil)
        var lookup = StreamingLookup(selection: common.selection, writer: writer, progress: progress, console: console)
        let stream: IPLookupStream
        if let named {
            let ledger = InputLedger()
            stream = client.lookupStream(named.addresses(recordingIn: ledger), fields: fields, options: options)
            lookup.ledger = ledger
            lookup.total = named.entries.count
        } else if case .addresses(let ips) = target {
            stream = client.lookupStream(ips, fields: fields, options: options)
            lookup.total = ips.count
        } else {
            let ledger = InputLedger(holdsRepeatsOfWrittenAddresses: !BulkCommand.mayPause("-"))
            var reader = AddressReader(inputs: ["-"], column: .first, ledger: ledger)
            reader.resolver = resolver
            stream = client.lookupStream(reader, fields: fields, options: options)
            lookup.ledger = ledger
            lookup.inputs = ["-"]
        }
        return try await lookup.run(stream)
    }

    /// `--dry-run`: what looking up the addresses would cost (one address: a single lookup;
    /// several: bulk requests, which answer private and reserved addresses locally), with or
    /// without `--field`, printed on standard output; nothing is sent.
    /// Names are resolved first (the system resolver is asked, not the API): the count is of the
    /// addresses that would be sent.
    private static func dryRun(
        _ target: Target, cache: SQLiteLookupStore?, fields: [String]?, resolver: HostResolver, console: Console
    ) async throws -> ExitStatus {
        let estimate: DryRun
        let single: Bool
        switch target {
        case .addresses(let ips):
            let addresses = AsyncStream { continuation in
                for ip in ips { continuation.yield(ip) }
                continuation.finish()
            }
            single = ips.count == 1
            estimate = try await DryRun.count(
                addresses, cache: cache, fields: fields, answersNonPublicLocally: !single)
        case .standardInput:
            var reader = AddressReader(inputs: ["-"], column: .first)
            reader.resolver = resolver
            estimate = try await DryRun.count(reader, cache: cache, fields: fields)
            single = false
        case .asn, .ownAddress:
            throw UsageError("--dry-run counts lookups of addresses: give the addresses")
        }
        console.printOutput(estimate.text(singleLookups: single) + "\n")
        return .success
    }

    /// One result: the caller's own address, one IP or one ASN; naming `host`, when the address
    /// was resolved from it. A failure is one line on stderr.
    private static func lookUpOne(
        _ target: Target, host: String? = nil, client: IPDataClient, common: CommonOptions, console: Console
    ) async throws -> ExitStatus {
        let fields = common.selection?.topLevelNames
        // An address's answer is written from the bytes the API sent (see `JSONWriter`).
        // The bytes to print, else the decoded answer.
        let answer: (json: Data?, response: IPResponse?)
        do {
            switch target {
            case .ownAddress:
                let sent = try await client.lookupAnswer(fields: fields)
                answer = (sent.json, sent.response)
            case .addresses(let ips):
                let sent = try await client.lookupAnswer(ips[0], fields: fields)
                answer = (sent.json, sent.response)
            case .asn(let asn):
                let record = try Record(encoding: await client.lookupASN(asn), selection: common.selection)
                try write(record, kind: .asn, common: common)
                return .success
            case .standardInput:
                preconditionFailure("the addresses of standard input are a list, looked up by run")
            }
        } catch let error as IPDataError {
            console.error(error.commandLineMessage)
            return error.exitStatus
        }
        let writer = try common.makeWriter(kind: .address, shape: .single, console: console, namesHosts: host != nil)
        let selection = common.selection
        if let json = answer.json {
            let named = host.map { RawJSON.withFirstMember(json, name: Columns.host, value: $0) } ?? json
            try writer.write(
                json: named,
                orRecord: {
                    var record = try Record(json: json, selection: selection)
                    if let host { record[Columns.host] = .string(host) }
                    return record
                })
        } else if let response = answer.response {
            var record = try Record(encoding: response, selection: selection)
            if let host { record[Columns.host] = .string(host) }
            try writer.write(record)
        }
        try writer.finish()
        OutputSink.current?.markComplete()
        return .success
    }

    private static func write(_ record: Record, kind: RecordKind, common: CommonOptions) throws {
        let writer = try common.makeWriter(kind: kind, shape: .single)
        try writer.write(record)
        try writer.finish()
        OutputSink.current?.markComplete()
    }

    /// `--field`: one field of each result, on a line of its own (of several addresses, see
    /// `FieldListLookup`).
    private static func printField(
        _ path: String, of target: Target, client: IPDataClient, cache: SQLiteLookupStore?, sink: OutputSink,
        text: FieldText, resolver: HostResolver, console: Console
    ) async throws -> ExitStatus {
        let steps = path.split(separator: ".").map(String.init)
        let list = FieldListLookup(
            steps: steps, client: client, cache: cache, sink: sink, text: text, console: console)
        do {
            switch target {
            case .addresses(let ips) where ips.count == 1:
                return try printField(
                    await fieldAnswer(steps, of: ips[0], client: client), sink: sink, text: text, console: console)
            case .addresses(let ips):
                let addresses = AsyncStream { continuation in
                    for ip in ips { continuation.yield(ip) }
                    continuation.finish()
                }
                return try await list.run(addresses)
            case .standardInput:
                var reader = AddressReader(inputs: ["-"], column: .first)
                reader.resolver = resolver
                return try await list.run(reader)
            case .asn(let asn):
                let record = try Record(encoding: await client.lookupASN(asn), selection: nil)
                return try printField(path, of: record, sink: sink, text: text, console: console)
            case .ownAddress:
                let top = String(path.prefix { $0 != "." })
                let record = try Record(encoding: await client.lookup(fields: [top]), selection: nil)
                return try printField(path, of: record, sink: sink, text: text, console: console)
            }
        } catch let error as IPDataError {
            console.error(error.commandLineMessage)
            return error.exitStatus
        }
    }

    /// How many single lookups of `--field` are in flight at once, once the plan has refused
    /// bulk requests.
    static let fieldConcurrency = 8

    /// What `--field` got for one address: the value as printed, or why there is none.
    enum FieldAnswer: Sendable {
        case value(String)
        /// A one-line message, the exit status it stands for, and whether it stops the run (a
        /// refused key, an exhausted quota).
        case failed(String, ExitStatus, stopsTheRun: Bool)
    }

    /// The field of one address: the value alone, with a line break; a failure is one line on
    /// stderr.
    private static func printField(_ answer: FieldAnswer, sink: OutputSink, text: FieldText, console: Console) throws
        -> ExitStatus
    {
        switch answer {
        case .value(let value):
            try sink.write(text.line(value))
        case .failed(let message, let failure, let stopsTheRun):
            console.error(message)
            if stopsTheRun { return failure }
            sink.markComplete()
            return failure
        }
        sink.markComplete()
        return .success
    }

    /// The field at `steps` of `ip`: the body of `GET /IP/FIELD` as it is, or for a dotted path
    /// the value at the rest of the path in that body.
    private static func fieldAnswer(_ steps: [String], of ip: String, client: IPDataClient) async -> FieldAnswer {
        let body: Data
        do {
            body = try await client.lookupField(ip, field: steps[0])
        } catch let error as IPDataError {
            return .failed(error.commandLineMessage, error.exitStatus, stopsTheRun: error.stopsTheRun)
        } catch {
            return .failed(error.localizedDescription, .lookupFailed, stopsTheRun: false)
        }
        guard steps.count > 1 else { return .value(String(decoding: body, as: UTF8.self)) }
        // A text field comes as plain text, not JSON: it has no fields either.
        var answer: JSONValue?
        do {
            answer = try JSONParser.parse(body)
        } catch let error as JSONParser.Malformed where error.isTooDeep {
            return .failed(
                "the answer for \(steps[0]) is \(error), which the API never sends (\(IPDataError.checkTheServer))",
                .lookupFailed, stopsTheRun: false)
        } catch {}
        guard let value = answer?.value(at: Array(steps.dropFirst())) else {
            return .failed("the answer has no field \(steps.joined(separator: "."))", .lookupFailed, stopsTheRun: false)
        }
        return .value(value.fieldText)
    }

    /// The field at `path` of a whole answer (the own address's, an ASN's).
    private static func printField(
        _ path: String, of record: Record, sink: OutputSink, text: FieldText, console: Console
    ) throws -> ExitStatus {
        guard let value = record.value(at: path) else {
            console.error("the answer has no field \(path)")
            return .lookupFailed
        }
        try sink.write(text.line(value.fieldText))
        sink.markComplete()
        return .success
    }
}
