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

/// The `ipdata` command: finds the command (`bulk`, `init`, `help`, else a lookup), runs it, and turns
/// what happened into one exit status.
@main
enum IPDataCommand {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        let invocation = read(arguments)
        let console = Console(parsed: invocation.parsed, environment: environment)
        let signals = Interruption.install()
        var status = await run(invocation, environment: environment, console: console)
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
        // Everything was written unbuffered, through FileHandle, so nothing is lost.
        withExtendedLifetime(signals) { _exit(status.rawValue) }
    }

    /// The commands, by the word that selects them; no word is a lookup.
    enum Command: String, CaseIterable {
        case lookup = ""
        case bulk
        case grep
        case enrich
        case summarize
        case cache
        case `init`
        case help
        case completion
        case man

        /// What the command does, in a line (for shells' completion menus).
        var oneLine: String {
            switch self {
            case .lookup: return "look up addresses or an ASN"
            case .bulk: return "look up every address of files or standard input"
            case .grep: return "find the IP addresses in any text"
            case .enrich: return "add the data of each line's addresses to a CSV, JSON lines or log file"
            case .summarize: return "totals, top countries and networks, threats of a list"
            case .cache: return "show what the cache of answers holds, or empty it"
            case .`init`: return "store your API key"
            case .help: return "show the help of a command"
            case .completion: return "print a completion script for bash, zsh or fish"
            case .man: return "print the manual page"
            }
        }

        /// What `--help` prints.
        var helpText: HelpText {
            switch self {
            case .lookup: return LookupCommand.help
            case .bulk: return BulkCommand.help
            case .grep: return GrepCommand.help
            case .enrich: return EnrichCommand.help
            case .summarize: return SummarizeCommand.help
            case .cache: return CacheCommand.help
            case .`init`: return InitCommand.help
            case .help: return HelpCommand.help
            case .completion: return CompletionCommand.help
            case .man: return ManualCommand.help
            }
        }

        /// The options the command takes (`--help` and `--version` among them).
        var options: [OptionSpec] {
            switch self {
            case .lookup: return LookupCommand.options
            case .bulk: return BulkCommand.options
            case .grep: return GrepCommand.options
            case .enrich: return EnrichCommand.options
            case .summarize: return SummarizeCommand.options
            case .cache: return CacheCommand.options
            case .`init`: return InitCommand.options
            case .help: return HelpCommand.options
            case .completion: return CompletionCommand.options
            case .man: return ManualCommand.options
            }
        }

        /// The command `word` was likely meant to be, when it is no address or ASN but a typo of
        /// a command's word (`sumarize`, `bulkk`, `grpe`); nil otherwise.
        static func meant(by word: String) -> Command? {
            guard IPAddress(word) == nil, !ASNumber.isASN(word) else { return nil }
            let words = allCases.filter { $0 != .lookup }.map(\.rawValue)
            return Spelling.closest(to: word, among: words).flatMap(Command.init(rawValue:))
        }

        /// How to ask for the command's help.
        var helpCommand: String {
            self == .lookup ? "ipdata --help" : "ipdata \(rawValue) --help"
        }
    }

    /// A command line, read once: the command and everything else it said.
    struct Invocation {
        let command: Command
        let parsed: ParsedArguments
    }

    /// Reads `arguments` (without the program name) once, with every command's options.
    ///
    /// The command word is the first positional argument before `--`, so options may come before
    /// it (`ipdata --eu bulk ips.txt`) and an option's value is never one (`--output bulk`); when
    /// that argument is not a command word, the command line is a lookup. An option that the
    /// command does not take is a problem of the command line, as an unknown one is.
    static func read(_ arguments: [String]) -> Invocation {
        var everyOption: [OptionSpec] = []
        for option in Command.allCases.flatMap(\.options) where !everyOption.contains(option) {
            everyOption.append(option)
        }
        var parsed = ArgumentParser(options: everyOption).read(arguments)
        var command = Command.lookup
        if parsed.positionalsBeforeDoubleDash > 0, let first = parsed.positionals.first {
            if let word = Command(rawValue: first), word != .lookup {
                command = word
                parsed.removeFirstPositional()
            } else if let meant = Command.meant(by: first) {
                // `ipdata sumarize FILE` would look up `sumarize` and the file's name.
                parsed.addProblem(UsageError("there is no command \(first): did you mean \(meant.rawValue)?"))
            }
        }
        let taken = Set(command.options.map(\.name))
        for name in parsed.givenOptions.sorted() where !taken.contains(name) {
            parsed.addProblem(UsageError("unknown option --\(name)"))
        }
        return Invocation(command: command, parsed: parsed)
    }

    /// Runs a command line and returns the exit status.
    static func run(_ invocation: Invocation, environment: [String: String], console: Console) async -> ExitStatus {
        let (command, parsed) = (invocation.command, invocation.parsed)
        // --help and --version win over everything else before `--`, even an unknown option.
        if parsed.has(CommonOptions.help.name) {
            console.printOutput(command.helpText.rendered)
            return .success
        }
        if parsed.has(CommonOptions.version.name) {
            console.printOutput("ipdata \(IPDataClient.sdkVersion)\n")
            return .success
        }
        console.isQuiet = parsed.has(CommonOptions.quiet.name)
        do {
            if let problem = parsed.problems.first { throw problem }
            switch command {
            case .lookup: return try await LookupCommand.run(parsed, environment: environment, console: console)
            case .bulk: return try await BulkCommand.run(parsed, environment: environment, console: console)
            case .grep: return try await GrepCommand.run(parsed, console: console)
            case .enrich: return try await EnrichCommand.run(parsed, environment: environment, console: console)
            case .summarize: return try await SummarizeCommand.run(parsed, environment: environment, console: console)
            case .cache: return try CacheCommand.run(parsed, environment: environment, console: console)
            case .`init`: return try await InitCommand.run(parsed, environment: environment, console: console)
            case .help: return try HelpCommand.run(parsed, console: console)
            case .completion: return try CompletionCommand.run(parsed, console: console)
            case .man: return try ManualCommand.run(parsed, console: console)
            }
        } catch let error as UsageError {
            console.error("\(error.message) (see \(command.helpCommand))")
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
}
