import ArgumentParser
import CLILibC
import Foundation
import IPData

/// How `ipdata` exits: by the class of what went wrong, so that scripts can tell a bad key from an
/// exhausted quota from a network failure.
enum ExitStatus: Int32 {
    /// Every lookup succeeded (or help, the version, `init`).
    case success = 0
    /// Some addresses failed (the API rejected them, or they are no addresses); the others were
    /// written.
    case lookupFailed = 1
    /// The command line or the configuration is wrong, for example no API key.
    case usage = 2
    /// The API refused the key (401).
    case keyRefused = 3
    /// The quota is exhausted, or the plan does not allow the call (403).
    case quotaExhausted = 4
    /// The API could not be reached, or did not answer, for at least one lookup.
    case networkFailed = 5
    /// The API limited the rate (429) of at least one lookup, which failed for it even after
    /// the retries.
    case rateLimited = 6
    /// Ctrl-C (SIGINT) or SIGTERM ended the run: 128 plus the signal's number, as shells do.
    case interrupted = 130
    case terminated = 143

    /// The status of a run that saw both `self` and `other`: the graver of the two.
    func combined(with other: ExitStatus) -> ExitStatus {
        other.gravity > gravity ? other : self
    }

    private var gravity: Int {
        switch self {
        case .success: return 0
        case .lookupFailed: return 1
        case .networkFailed: return 2
        case .rateLimited: return 3
        case .usage, .keyRefused, .quotaExhausted, .interrupted, .terminated: return 4
        }
    }

    /// The exit statuses as `--help` and the README list them.
    static let helpText = """
        Exit status: 0 every lookup succeeded; 1 some addresses failed, the others were written;
        2 usage or configuration error; 3 the API key was refused; 4 the quota is exhausted or the
        plan does not allow the call; 5 network failure; 6 the API limited the rate (429) and
        lookups failed for it after the retries; 130 interrupted.
        """
}

/// A failure that ends a command with `status`, printed as one line on standard error.
struct CommandError: Error {
    let status: ExitStatus
    let message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// The `ipdata` command: its subcommands, of which the lookup is the default (`ipdata 8.8.8.8`),
/// and the options they share, which may come before the command word (`ipdata --sandbox bulk`).
struct IPDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ipdata",
        abstract: "Look up IP addresses with the ipdata.co API: location, network, company and threat data.",
        version: "ipdata \(IPDataClient.sdkVersion)",
        subcommands: [
            LookupCommand.self, BulkCommand.self, GrepCommand.self, EnrichCommand.self, SummarizeCommand.self,
            FilterCommand.self,
            CIDRCommand.self, CacheCommand.self, InitCommand.self, HelpCommand.self, CompletionCommand.self,
            ManualCommand.self, MCPCommand.self,
        ],
        defaultSubcommand: LookupCommand.self)

    // Read here as well as by each command, so that they may come before the command word.
    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    /// The commands that take a word (every one but the lookup), in the order help lists them.
    static var commands: [any ToolCommand.Type] {
        configuration.subcommands.compactMap { $0 as? any ToolCommand.Type }.filter { $0 != LookupCommand.self }
    }

    /// The words of `commands`: `bulk`, `grep`, ….
    static var commandWords: [String] { commands.map { $0.configuration.commandName ?? "" } }

    /// The command `word` was likely meant to be, when it is no address or ASN but a typo of a
    /// command's word (`sumarize`, `bulkk`, `grpe`); nil otherwise, and for a command's word.
    static func commandMeant(by word: String) -> String? {
        guard IPAddress(word) == nil, !ASNumber.isASN(word), !commandWords.contains(word) else { return nil }
        return Spelling.closest(to: word, among: commandWords)
    }

    /// What `ipdata --help` and `ipdata help` print: the lookup's help, which lists every command.
    static var toolHelp: String { HelpProse.fitted(helpMessage(for: LookupCommand.self, columns: HelpProse.width)) }
}

/// Runs `ipdata`: reads the command line with `IPDataCommand`, runs the command, and turns what
/// happened into one exit status.
@main
enum IPDataProgram {
    static func main() async {
        FreedMemory.keep()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        let console = Console(arguments: arguments, environment: environment)
        let signals = Interruption.install()
        var status = await run(arguments, environment: environment, console: console)
        // Kept by --quiet when lookups failed for it; a note when the retries got through.
        if let limited = RequestTally.run.rateLimitText {
            if status == .rateLimited { console.error(limited) } else { console.note(limited) }
        }
        // The output file replaces the old one only when the command got through its input.
        if let problem = OutputSink.current?.finish() {
            console.error(problem)
            if status == .success || status == .lookupFailed { status = .lookupFailed }
        }
        if let note = OutputSink.current?.partialOutputsNote { console.warning(note) }
        // `_exit`, not `exit`: on Linux, `exit` runs OpenSSL's clean-up while URLSession's threads
        // may still be closing connections, which crashes now and then (about 1 run in 100).
        // The output's buffer was written out by `finish()` above, so nothing is lost.
        withExtendedLifetime(signals) { _exit(status.rawValue) }
    }

    /// Runs a command line (without the program name) and returns the exit status.
    static func run(_ arguments: [String], environment: [String: String], console: Console) async -> ExitStatus {
        let arguments = GrepColors.withDefaultValue(arguments)
        let parsed: any ParsableCommand
        let attached = attachedFieldsValue(in: arguments)
        do {
            parsed = try IPDataCommand.parseAsRoot(arguments)
        } catch {
            // --version, and the answers of shell completion, exit 0 on standard output.
            if IPDataCommand.exitCode(for: error) == .success {
                let text = IPDataCommand.fullMessage(for: error, columns: HelpProse.width)
                console.printOutput((HelpProse.isHelp(text) ? HelpProse.fitted(text) : text) + "\n")
                return .success
            }
            let problem = CommandLineProblem(error)
            console.error(attached ? "\(attachedFieldsMessage) (see \(problem.helpCommand))" : problem.line)
            return .usage
        }
        guard let command = parsed as? any ToolCommand else {
            // ArgumentParser's help, for --help and -h: ipdata's own for the lookup's.
            console.printOutput(helpText(of: parsed))
            return .success
        }
        if attached {
            console.error("\(attachedFieldsMessage) (see \(type(of: command).helpCommand))")
            return .usage
        }
        console.isQuiet = command.isQuiet
        do {
            return try await command.run(environment: environment, console: console)
        } catch let error as UsageError {
            console.error("\(error.message) (see \(type(of: command).helpCommand))")
            return .usage
        } catch let error as CommandError {
            console.error(error.message)
            return error.status
        } catch let error as IPDataError {
            console.error(error.commandLineMessage)
            return error.exitStatus
        } catch {
            console.error(error.localizedDescription)
            return .lookupFailed
        }
    }

    /// Whether an argument before `--` is `-f` with its value attached (`-fip,city`, which 1.1.0
    /// read as `-f ip,city`). ArgumentParser reads it as the one-letter options f, i and p, and
    /// takes the next argument for -f's value, which would make a file name the fields: refused.
    static func attachedFieldsValue(in arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0.hasPrefix("-f") && $0.count > 2 && !$0.hasPrefix("-f=") }
    }

    /// The line for `attachedFieldsValue(in:)`, without the value (which is not repeated).
    static let attachedFieldsMessage = "option -f takes its value after a space: -f a,b,c"

    /// What ArgumentParser's help command prints; `IPDataCommand.toolHelp` in place of the root's.
    private static func helpText(of help: any ParsableCommand) -> String {
        var help = help
        do {
            try help.run()
        } catch {
            let text = IPDataCommand.fullMessage(for: error, columns: HelpProse.width)
            let isRoot = text == IPDataCommand.helpMessage(columns: HelpProse.width)
            return (isRoot ? IPDataCommand.toolHelp : HelpProse.fitted(text)) + "\n"
        }
        return IPDataCommand.toolHelp + "\n"
    }
}
