import Foundation
import IPData

/// `ipdata [IP…|ASN]`: looks up the caller's own address, one or more IP addresses (several go
/// through bulk requests), the addresses piped to standard input, or an autonomous system;
/// `--field NAME` prints one field.
enum LookupCommand {
    static let fieldOption = OptionSpec(
        "field", value: "NAME", help: "print one field as the API returns it, such as country_name or asn.name")

    static let options =
        [CommonOptions.fields, fieldOption] + CommonOptions.specs.filter { $0 != CommonOptions.fields }

    static let help = HelpText(
        usage: [
            "ipdata [OPTIONS] [IP… | ASN]", "ipdata bulk [OPTIONS] [FILE… | -]", "ipdata init [KEY]",
            "ipdata help [COMMAND]",
        ],
        summary: """
            Look up IP addresses with the ipdata.co API: location, network, company and threat data.

              ipdata                         your own IP address
              ipdata 8.8.8.8 1.1.1.1         one or more IP addresses (several go in bulk requests)
              cat ips.txt | ipdata           the addresses of standard input, one a line (a pipe or a file)
              ipdata AS15169                 an autonomous system
              ipdata 8.8.8.8 --field asn     one field, as the API returns it
              ipdata bulk ips.txt            a list of any size, from files or standard input
              ipdata init                    store your API key
            """,
        options: options,
        footer: """
            The key comes from --api-key, else IPDATA_API_KEY, else $XDG_CONFIG_HOME/ipdata/config
            (~/.config/ipdata/config), which `ipdata init` writes. Run `ipdata help bulk` and
            `ipdata help init` (or `ipdata bulk --help`, `ipdata init --help`) for those commands.
            \(ExitStatus.helpText)
            """ + "\n\n" + SandboxHelp.text)

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
            if let command = arguments.first(where: { $0 == "bulk" || $0 == "init" }) {
                throw UsageError("\(command) is a command, not an address: ipdata \(command) [OPTIONS] …")
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
    }

    static func run(_ parsed: ParsedArguments, environment: [String: String], console: Console) async throws
        -> ExitStatus
    {
        let common = try CommonOptions(parsed)
        let target = try Target(arguments: parsed.positionals, readsStandardInput: StandardInput.isPipeOrFile)
        let field = parsed.value(fieldOption.name)
        if let field {
            if common.selection != nil || common.format != nil {
                throw UsageError("--field prints one value: leave out --fields and --format")
            }
            guard !field.isEmpty,
                !field.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            else { throw UsageError("--field needs a field name, such as country_name or asn.name") }
        }
        let client = try common.makeClient(environment: environment, console: console)
        if let field {
            return try await printField(field, of: target, client: client, sink: common.openOutput(), console: console)
        }
        let (kind, shape): (RecordKind, RecordShape)
        switch target {
        case .asn: (kind, shape) = (.asn, .single)
        case .addresses(let ips) where ips.count > 1: (kind, shape) = (.address, .list)
        case .standardInput: (kind, shape) = (.address, .list)
        case .addresses, .ownAddress: (kind, shape) = (.address, .single)
        }
        common.selection?.warnAboutUnknownNames(kind: kind, shape: shape, console: console)
        guard shape == .list else {
            return try await lookUpOne(target, client: client, common: common, console: console)
        }
        let progress = Progress(console: console, showsBar: false)
        let events = progress.events
        let fields = common.selection?.topLevelNames
        var options = LookupStreamOptions(onEvent: { events.record($0) })
        // Records are written from the bytes the API sent, not from the decoded model.
        options.keepsJSON = true
        let writer = try common.makeWriter(kind: .address, shape: .list, inputs: ["-"])
        var lookup = StreamingLookup(selection: common.selection, writer: writer, progress: progress, console: console)
        let stream: IPLookupStream
        if case .addresses(let ips) = target {
            stream = client.lookupStream(ips, fields: fields, options: options)
            lookup.total = ips.count
        } else {
            let ledger = InputLedger()
            stream = client.lookupStream(
                AddressReader(inputs: ["-"], column: .first, ledger: ledger), fields: fields, options: options)
            lookup.ledger = ledger
            lookup.inputs = ["-"]
        }
        return try await lookup.run(stream)
    }

    /// One result: the caller's own address, one IP or one ASN. A failure is one line on stderr.
    private static func lookUpOne(_ target: Target, client: IPDataClient, common: CommonOptions, console: Console)
        async throws -> ExitStatus
    {
        let fields = common.selection?.topLevelNames
        // An address's answer is written from the bytes the API sent (see `JSONWriter`).
        let answer: IPDataClient.Answer
        do {
            switch target {
            case .ownAddress:
                answer = try await client.ownAddressAnswer(fields: fields)
            case .addresses(let ips):
                answer = try await client.lookupAnswer(ips[0], fields: fields, willSend: nil)
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
        let writer = try common.makeWriter(kind: .address, shape: .single)
        let selection = common.selection
        if let json = answer.json {
            try writer.write(json: json, orRecord: { try Record(json: json, selection: selection) })
        } else {
            try writer.write(try Record(encoding: answer.response, selection: selection))
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

    /// `--field`: one field of each result, on a line of its own.
    private static func printField(
        _ path: String, of target: Target, client: IPDataClient, sink: OutputSink, console: Console
    ) async throws -> ExitStatus {
        do {
            switch target {
            case .addresses(let ips):
                let addresses = AsyncStream { continuation in
                    for ip in ips { continuation.yield(ip) }
                    continuation.finish()
                }
                return try await printField(
                    path, of: addresses, labelled: ips.count > 1, client: client, sink: sink, console: console)
            case .standardInput:
                let addresses = AddressReader(inputs: ["-"], column: .first)
                return try await printField(
                    path, of: addresses, labelled: true, client: client, sink: sink, console: console)
            case .asn(let asn):
                let record = try Record(encoding: await client.lookupASN(asn), selection: nil)
                return try printField(path, of: record, sink: sink, console: console)
            case .ownAddress:
                let top = String(path.prefix { $0 != "." })
                let record = try Record(encoding: await client.lookup(fields: [top]), selection: nil)
                return try printField(path, of: record, sink: sink, console: console)
            }
        } catch let error as IPDataError {
            console.error(error.commandLineMessage)
            return error.exitStatus
        }
    }

    /// The field of each address from the API's field endpoint (`GET /8.8.8.8/asn`), whose body
    /// is printed as it is; a dotted path walks into that body. A failed address is one line on
    /// stderr, starting with the address when `labelled`, and the others go on, unless the key
    /// or the plan is refused.
    private static func printField<Addresses: AsyncSequence>(
        _ path: String, of ips: Addresses, labelled: Bool, client: IPDataClient, sink: OutputSink, console: Console
    ) async throws -> ExitStatus where Addresses.Element == String {
        let steps = path.split(separator: ".").map(String.init)
        var status = ExitStatus.success
        for try await ip in ips {
            let label = labelled ? "\(ip): " : ""
            do {
                let body = try await client.lookupField(ip, field: steps[0])
                var text = String(decoding: body, as: UTF8.self)
                if steps.count > 1 {
                    // A text field comes as plain text, not JSON: it has no fields either.
                    var answer: JSONValue?
                    do {
                        answer = try JSONParser.parse(body)
                    } catch let error as JSONParser.Malformed where error.isTooDeep {
                        console.error(
                            "\(label)the answer for \(steps[0]) is \(error), which the API never sends "
                                + "(\(IPDataError.checkTheServer))")
                        status = .lookupFailed
                        continue
                    } catch {}
                    guard let value = answer?.value(at: Array(steps.dropFirst())) else {
                        console.error("\(label)the answer has no field \(path)")
                        status = .lookupFailed
                        continue
                    }
                    text = value.fieldText
                }
                try sink.write(text.hasSuffix("\n") ? text : text + "\n")
            } catch let error as IPDataError {
                console.error(label + error.commandLineMessage)
                status = status.combined(with: error.exitStatus)
                if error.stopsTheRun { return status }
            }
        }
        sink.markComplete()
        return status
    }

    /// The field at `path` of a whole answer (the own address's, an ASN's).
    private static func printField(_ path: String, of record: Record, sink: OutputSink, console: Console) throws
        -> ExitStatus
    {
        guard let value = record.value(at: path) else {
            console.error("the answer has no field \(path)")
            return .lookupFailed
        }
        try sink.write(value.fieldText + "\n")
        sink.markComplete()
        return .success
    }
}
