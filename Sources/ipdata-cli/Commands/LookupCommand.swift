import Foundation
import IPData

/// `ipdata [IP…|ASN]`: looks up the caller's own address, one or more IP addresses (several go
/// through bulk requests), or an autonomous system; `--field NAME` prints one field.
enum LookupCommand {
    static let fieldOption = OptionSpec(
        "field", value: "NAME", help: "print one field as the API returns it, such as country_name or asn.name")

    static let options =
        [CommonOptions.fields, fieldOption] + CommonOptions.specs.filter { $0 != CommonOptions.fields }

    static let help = HelpText(
        usage: [
            "ipdata [OPTIONS] [IP… | ASN]", "ipdata bulk [OPTIONS] [FILE… | -]", "ipdata init [KEY]",
        ],
        summary: """
            Look up IP addresses with the ipdata.co API: location, network, company and threat data.

              ipdata                         your own IP address
              ipdata 8.8.8.8 1.1.1.1         one or more IP addresses (several go in bulk requests)
              ipdata AS15169                 an autonomous system
              ipdata 8.8.8.8 --field asn     one field, as the API returns it
              ipdata bulk ips.txt            a list of any size, from files or standard input
              ipdata init                    store your API key
            """,
        options: options,
        footer: """
            The key comes from --api-key, else IPDATA_API_KEY, else $XDG_CONFIG_HOME/ipdata/config
            (~/.config/ipdata/config), which `ipdata init` writes. Run `ipdata bulk --help` and
            `ipdata init --help` for those commands.
            Exit status: 0 when every lookup succeeded, 1 when one failed, 2 for a usage or
            configuration error.
            """)

    /// What the positional arguments ask for.
    enum Target: Equatable {
        case ownAddress
        case addresses([String])
        case asn(String)

        init(arguments: [String]) throws {
            if let command = arguments.first(where: { $0 == "bulk" || $0 == "init" }) {
                throw UsageError("\(command) is a command, not an address: ipdata \(command) [OPTIONS] …")
            }
            let asnCount = arguments.filter(Self.isASN).count
            if arguments.isEmpty {
                self = .ownAddress
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
        let target = try Target(arguments: parsed.positionals)
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
        switch target {
        case .addresses(let ips) where ips.count > 1:
            let progress = Progress(console: console, showsBar: false)
            let events = progress.events
            let stream = client.lookupStream(
                ips, fields: common.selection?.topLevelNames,
                options: LookupStreamOptions(onEvent: { events.record($0) }))
            let writer = try common.makeWriter(kind: .address, shape: .list)
            return try await StreamingLookup(
                selection: common.selection, writer: writer, progress: progress, console: console
            ).run(stream)
        default:
            return try await lookUpOne(target, client: client, common: common, console: console)
        }
    }

    /// One result: the caller's own address, one IP or one ASN. A failure is one line on stderr.
    private static func lookUpOne(_ target: Target, client: IPDataClient, common: CommonOptions, console: Console)
        async throws -> ExitStatus
    {
        let fields = common.selection?.topLevelNames
        let record: Record
        do {
            switch target {
            case .ownAddress:
                record = try Record(encoding: await client.lookup(fields: fields), selection: common.selection)
            case .addresses(let ips):
                record = try Record(encoding: await client.lookup(ips[0], fields: fields), selection: common.selection)
            case .asn(let asn):
                record = try Record(encoding: await client.lookupASN(asn), selection: common.selection)
            }
        } catch let error as IPDataError {
            console.error(error.commandLineMessage)
            return .lookupFailed
        }
        if case .asn = target {
            try write(record, kind: .asn, common: common)
        } else {
            try write(record, kind: .address, common: common)
        }
        return .success
    }

    private static func write(_ record: Record, kind: RecordKind, common: CommonOptions) throws {
        let writer = try common.makeWriter(kind: kind, shape: .single)
        try writer.write(record)
        try writer.finish()
    }

    /// `--field`: one field of each result, on a line of its own.
    private static func printField(
        _ path: String, of target: Target, client: IPDataClient, sink: OutputSink, console: Console
    ) async throws -> ExitStatus {
        do {
            switch target {
            case .addresses(let ips):
                return try await printField(path, of: ips, client: client, sink: sink, console: console)
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
            return .lookupFailed
        }
    }

    /// The field of each address from the API's field endpoint (`GET /8.8.8.8/asn`), whose body
    /// is printed as it is; a dotted path walks into that body. A failed address is one line on
    /// stderr, and the others go on, unless the key or the plan is refused.
    private static func printField(
        _ path: String, of ips: [String], client: IPDataClient, sink: OutputSink, console: Console
    ) async throws -> ExitStatus {
        let steps = path.split(separator: ".").map(String.init)
        var status = ExitStatus.success
        for ip in ips {
            let label = ips.count > 1 ? "\(ip): " : ""
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
                status = .lookupFailed
                if error.stopsTheRun { break }
            }
        }
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
        return .success
    }
}
