import Foundation
import IPData
import IPDataTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ipdata summarize [FILE…|-]`: the totals, top countries, networks and company types, and
/// threat counts of a list: addresses, which it looks up (in bulk, as `ipdata bulk`), or the JSON
/// records `ipdata bulk` already wrote, which it reads without a request.
enum SummarizeCommand {
    static let topOption = OptionSpec("top", value: "N", help: "how many of each list to show, 1 to 1000 (default 10)")
    static let formatOption = OptionSpec(
        "format", value: "FORMAT", choices: ["table", "json"], help: "table or json (default: table)")

    static let options =
        [topOption, formatOption, BulkCommand.dryRunOption]
        + CommonOptions.specs.filter {
            ![CommonOptions.fields, CommonOptions.format, CommonOptions.output].contains($0)
        }

    static let help = HelpText(
        usage: ["ipdata summarize [OPTIONS] [FILE… | -]"],
        summary: """
            Summarize a list of addresses: totals (unique, public, private), the top countries,
            networks (ASN and name) and company types, threat counts (Tor, VPN, proxy, data
            centre, known attackers and abusers) and blocklists.

            Each line is an address, which is looked up (in bulk requests, as ipdata bulk does), or
            a JSON record that ipdata bulk wrote, which is read as it is: no request, no key.
            Memory grows with the distinct values only, whatever the number of lines.

              ipdata grep -o --public access.log | ipdata summarize
              ipdata bulk ips.txt > records.jsonl && ipdata summarize records.jsonl
              ipdata summarize --format json --top 5 records.jsonl
            """,
        options: options)

    static func run(_ parsed: ParsedArguments, environment: [String: String], console: Console) async throws
        -> ExitStatus
    {
        let common = try CommonOptions(parsed)
        let top = try CommonOptions.wholeNumber(parsed, topOption, in: 1...1_000, unit: "") ?? 10
        let asJSON: Bool
        switch parsed.value(formatOption.name)?.lowercased() {
        case nil, "table"?: asJSON = false
        case "json"?: asJSON = true
        default: throw UsageError("--format must be table or json")
        }
        let inputs = parsed.positionals.isEmpty ? ["-"] : parsed.positionals
        if inputs.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading addresses or records from standard input; end with Ctrl-D")
        }
        // Addresses need a key; records do not. A missing key is said when the first address comes.
        var keyProblem: (any Error)?
        let fields = ["ip", "country_name", "country_code", "asn", "company", "threat"]
        let client: IPDataClient
        var cache: CachedAnswers?
        do {
            (client, cache) = try common.makeClientAndCache(environment: environment, console: console, fields: fields)
        } catch let error as UsageError {
            throw error
        } catch {
            keyProblem = error
            // Never sends: the input stops at the first address, with `keyProblem`.
            client = IPDataClient(apiKey: "", configuration: .init(connection: .transport(IPDataSandbox())))
        }
        let summary = Locked(Summary())
        if parsed.has(BulkCommand.dryRunOption.name) {
            // The addresses to look up; records cost nothing and are only read.
            let addresses = SummaryInput(inputs: inputs, summary: summary, keyProblem: nil)
            let estimate = try await DryRun.count(addresses, cache: cache)
            console.printOutput(estimate.text(singleLookups: false) + "\n")
            return .success
        }
        let input = SummaryInput(inputs: inputs, summary: summary, keyProblem: keyProblem)
        defer { cache?.reportWriteProblem(to: console) }
        var options = LookupStreamOptions()
        options.keptAnswers = cache
        let stream = client.lookupStream(input, fields: fields, options: options)
        var failures = LookupFailures()
        for try await result in stream {
            if let error = result.error {
                if error.stopsTheRun { throw error }
                // An address the API rejects (a private one) is part of the summary, not a failure.
                if error.exitStatus != .lookupFailed { failures.record(error) }
            }
            summary.withLock { $0.add(address: result.ip, response: result.response) }
        }
        let text = summary.withLock { asJSON ? $0.json(top: top) : $0.table(top: top) }
        console.printOutput(text)
        if let hits = cache?.hits, hits > 0 { console.note(CachedAnswers.notice(hits)) }
        failures.report(to: console, what: "the summary counts them as without an answer")
        // A dead server or a server error is not summarised away: its exit status says so.
        return failures.status
    }
}

/// The lines of `summarize`'s inputs: JSON records go straight into the summary; addresses are
/// handed on, to be looked up.
struct SummaryInput: AsyncSequence, Sendable {
    typealias Element = String

    let inputs: [String]
    let summary: Locked<Summary>
    /// Why addresses cannot be looked up (no key), thrown at the first one.
    let keyProblem: (any Error)?

    func makeAsyncIterator() -> Iterator {
        Iterator(inputs: inputs, summary: summary, keyProblem: keyProblem)
    }

    struct Iterator: AsyncIteratorProtocol {
        let inputs: [String]
        let summary: Locked<Summary>
        let keyProblem: (any Error)?
        private var next = 0
        private var reader: LineReader?
        private let decoder = JSONDecoder()

        init(inputs: [String], summary: Locked<Summary>, keyProblem: (any Error)?) {
            self.inputs = inputs
            self.summary = summary
            self.keyProblem = keyProblem
        }

        mutating func next() async throws -> String? {
            while true {
                if reader == nil {
                    guard next < inputs.count else { return nil }
                    let path = inputs[next]
                    next += 1
                    reader =
                        path == "-" ? LineReader.standardInput(expected: "text") : try LineReader.file(atPath: path)
                }
                guard let line = try await reader?.nextLine() else {
                    reader = nil
                    continue
                }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                guard trimmed.hasPrefix("{") else {
                    if let keyProblem { throw keyProblem }
                    return trimmed
                }
                let record = try? decoder.decode(IPResponse.self, from: Data(trimmed.utf8))
                // An error record of ipdata bulk (`"error": …`) has no answer: it counts as failed.
                let answer = record.flatMap { trimmed.contains(#""error""#) ? nil : $0 }
                summary.withLock { $0.add(address: record?.ip ?? "", response: answer) }
            }
        }
    }
}
