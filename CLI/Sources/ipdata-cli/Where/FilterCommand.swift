import ArgumentParser
import CLILibC
import Foundation
import IPData

/// `ipdata filter --where EXPR [-v] [FILE…|-]`: the lines of text whose addresses' lookups
/// satisfy an expression (`WhereExpression`), byte for byte, in order; with `-v`, those whose
/// addresses all fail it. For fail2ban and cron: exit status 0 when a line was printed, 1 when
/// none was.
///
/// Lines go through `ipdata enrich`'s machinery (`EnrichSource`, `EnrichInput`, `EnrichQueue`) as
/// log lines: their addresses found as `ipdata grep` finds them, each distinct address looked up
/// once in bulk requests (through the disk cache), each line written once its answers are in.
struct FilterCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "keep the lines whose addresses' data match an expression",
        usage: "ipdata filter --where EXPR [-v] [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Print the lines of the files (or standard input, -, the default) that hold an address
            whose data match the expression of --where, byte for byte as they are (CR included),
            in order; with -v, the lines that hold addresses and none that match. Addresses are
            found as ipdata grep finds them; a line with several is printed when any of them matches. Each
            distinct address is looked up once, in bulk requests, through the disk cache, however
            often it repeats. Private, loopback and reserved addresses have no data: they are
            skipped, and a line that holds only such addresses is printed by neither.

              ipdata filter --where 'threat.is_threat or asn.type == "hosting"' access.log
              tail -n 5000 auth.log | ipdata filter --where "country_code in ['CN','RU']"
              ipdata filter -v --where 'asn.type == "isp"' /var/log/nginx/access.log
            With --blocklist, no line is printed but the addresses of the kept lines that match
            (with -v, those of the lines kept), aggregated into the fewest CIDRs, as ipdata bulk
            --blocklist prints them:
              ipdata filter --where threat.is_threat --blocklist nft --set-name bad access.log

            \(WhereHelp.grammar)

            A line whose address could not be looked up (the API rejected it, or could not be
            reached) is printed by neither, as its data are unknown: one line on standard error
            counts them at the end.

            Exit status: 0 a line was printed; 1 none was; 2 usage error (a bad expression), an
            input could not be read, or lookups failed; 3 the API key was refused; 4 the quota is
            exhausted; 5 the API could not be reached; 6 rate limited. A status above 1 wins
            over 0, as grep's does.
            """))

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "the lines to keep: an expression over the lookup's fields, such as 'threat.is_tor or "
                + "threat.scores.threat_score >= 80' (see ipdata help filter)",
            valueName: "EXPR"))
    var condition: String

    @Flag(
        name: [.customShort("v"), .customLong("invert-match")],
        help: "print the lines that hold addresses and none whose data match")
    var invert = false

    @OptionGroup var blocklistOptions: BlocklistOptions
    @OptionGroup var endpoint: EndpointOptions
    @OptionGroup var client: ClientOptions
    @OptionGroup var flush: FlushIntervalOptions

    @Argument(help: ArgumentHelp("files of text; - or none: standard input"), completion: .file())
    var files: [String] = []

    var isQuiet: Bool { client.quiet }

    mutating func validate() throws {
        try checked {
            _ = try CommonOptions(client: client, endpoint: endpoint)
            do {
                _ = try WhereParser.parse(condition)
            } catch let error as WhereError {
                throw error.usageError
            }
            if files.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read once") }
            _ = try blocklistOptions.checked()
        }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let common = try CommonOptions(client: client, endpoint: endpoint)
        let expression: WhereExpression
        do {
            expression = try WhereParser.parse(condition)
        } catch let error as WhereError {
            throw error.usageError
        }
        let inputs = files.isEmpty ? ["-"] : files
        let (client, cache) = try common.makeClientAndCache(environment: environment, console: console)
        defer { CacheReport.problem(of: cache, to: console) }
        if inputs.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading text from standard input; end with Ctrl-D")
        }
        // The fields sent are those the expression reads (`ip` when it reads none, as every
        // answer has it).
        let blocklist = try blocklistOptions.checked().map {
            BlocklistWriter(format: $0.format, setName: $0.setName, sink: try common.openOutput())
        }
        // A blocklist is made of the answers' own `ip`.
        let paths =
            expression.paths.contains("ip") || (blocklist == nil && !expression.paths.isEmpty)
            ? expression.paths : ["ip"] + expression.paths
        let enricher = Enricher(shape: .lines, fields: paths)
        let topLevelNames = WhereExpression.topLevelNames(of: paths)
        let output = GrepOutput(escapesControlCharacters: Terminal.isTerminal(STDOUT_FILENO))
        var decision = FilterDecision(expression: expression, paths: paths, invert: invert)
        var options = LookupStreamOptions()
        options.sendsNonPublicAddresses = false
        // A line is kept or dropped soon after it was read, even while the input pauses (`tail -f`).
        options.flushInterval = try flush.seconds()
        let queue = Locked(EnrichQueue())
        var someInputUnread = false
        var open = true
        /// Writes the lines that are kept; false once standard output is closed.
        func write(_ lines: [(EnrichLine, [EnrichAnswer])]) -> Bool {
            for (line, answers) in lines where decision.keeps(line, answers: answers) {
                if let blocklist {
                    decision.keptAddresses(of: answers).forEach(blocklist.keep)
                    continue
                }
                var bytes = line.record.bytes
                if line.record.lineEnd == .carriageReturnLineFeed { bytes.append(UInt8(ascii: "\r")) }
                guard bytes.withUnsafeBufferPointer({ output.write(line: $0) }) else { return false }
            }
            return output.flush()
        }
        inputs: for input in inputs {
            if input != "-", !FileManager.default.isReadableFile(atPath: input) {
                console.error("cannot read \(input)")
                someInputUnread = true
                continue
            }
            let source = EnrichSource(path: input, enricher: enricher)
            repeat {
                // One stream for the whole input, unless the lines waiting fill the queue: see EnrichQueue.
                let addresses = EnrichInput(source: source, queue: queue)
                do {
                    for try await result in client.lookupStream(addresses, fields: topLevelNames, options: options) {
                        if let error = result.error, error.stopsTheRun { throw error }
                        let answer = enricher.answer(of: result)
                        open = write(queue.withLock { $0.answer(result.ip, with: answer) })
                        guard open else { break inputs }
                    }
                } catch let error as CommandError where error.status == .usage {
                    // An input that cannot be read to its end (a line over 1 MiB): what was
                    // answered before goes out, the lines whose lookups the stream took with it
                    // are dropped (they would hold back the next input's), and the other inputs
                    // are still read.
                    open = write(queue.withLock { $0.takeReady() })
                    queue.withLock { $0 = EnrichQueue() }
                    // RecordReader names enrich, whose reader this is.
                    console.error(
                        error.message.replacingOccurrences(of: "the most enrich reads", with: "the most filter reads"))
                    someInputUnread = true
                    guard open else { break inputs }
                    continue inputs
                } catch {
                    _ = write(queue.withLock { $0.takeReady() })
                    decision.report(to: console)
                    throw error
                }
                open = write(queue.withLock { $0.takeReady() })
                guard open else { break inputs }
            } while !source.isAtEnd
        }
        guard open else { return .success }
        if let blocklist {
            try blocklist.finish()
            if let tally = blocklist.tally { console.note(tally) }
        }
        if let hits = cache?.hits, hits > 0 { console.note(CacheReport.notice(hits)) }
        decision.report(to: console)
        let status: ExitStatus = decision.printedAny ? .success : .lookupFailed
        return status.combined(with: someInputUnread ? .usage : decision.failureStatus)
    }
}
