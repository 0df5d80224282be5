import Foundation
import IPData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `ipdata` exits.
enum ExitStatus: Int32 {
    /// Every lookup succeeded (or help, the version, `init`).
    case success = 0
    /// A lookup failed: the API refused it, or the network did (for `bulk`: any record with an error).
    case lookupFailed = 1
    /// The command line or the configuration is wrong, for example no API key.
    case usage = 2
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

/// The `ipdata` command: finds the command (`bulk`, `init`, else a lookup), runs it, and turns
/// what happened into one exit status.
@main
enum IPDataCommand {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        let console = Console(arguments: arguments, environment: environment)
        let status = await run(arguments, environment: environment, console: console)
        // `_exit`, not `exit`: on Linux, `exit` runs OpenSSL's clean-up while URLSession's threads
        // may still be closing connections, which crashes now and then (about 1 run in 100).
        // Everything was written unbuffered, through FileHandle, so nothing is lost.
        _exit(status.rawValue)
    }

    /// The commands, by the word that selects them; no word is a lookup.
    enum Command: String {
        case lookup = ""
        case bulk
        case `init`

        var help: HelpText {
            switch self {
            case .lookup: return LookupCommand.help
            case .bulk: return BulkCommand.help
            case .`init`: return InitCommand.help
            }
        }
    }

    /// The command and its arguments. The command word is the first argument that is neither an
    /// option nor an option's value, so options may come before it (`ipdata --eu bulk ips.txt`);
    /// when that argument is not a command word, the command line is a lookup.
    static func split(_ arguments: [String]) -> (Command, [String]) {
        let options = LookupCommand.options + BulkCommand.options + InitCommand.options
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" || argument == "-" || !argument.hasPrefix("-") { break }
            let takesValue: Bool
            if argument.hasPrefix("--") {
                let name = argument.dropFirst(2).prefix { $0 != "=" }
                takesValue = !argument.contains("=") && options.contains { $0.name == name && $0.takesValue }
            } else {
                takesValue = argument.count == 2 && options.contains { $0.short == argument.last && $0.takesValue }
            }
            index += takesValue ? 2 : 1
        }
        guard index < arguments.count, let command = Command(rawValue: arguments[index]), command != .lookup else {
            return (.lookup, arguments)
        }
        var rest = arguments
        rest.remove(at: index)
        return (command, rest)
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String], environment: [String: String], console: Console) async -> ExitStatus {
        let (command, rest) = split(arguments)
        // --help and --version win over everything else before `--`, even an unknown option.
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            console.printOutput(command.help.rendered)
            return .success
        }
        if options.contains("--version") {
            console.printOutput("ipdata \(IPDataClient.sdkVersion)\n")
            return .success
        }
        do {
            switch command {
            case .lookup: return try await LookupCommand.run(rest, environment: environment, console: console)
            case .bulk: return try await BulkCommand.run(rest, environment: environment, console: console)
            case .`init`: return try await InitCommand.run(rest, environment: environment, console: console)
            }
        } catch let error as UsageError {
            let helpCommand = command == .lookup ? "ipdata --help" : "ipdata \(command.rawValue) --help"
            console.error("\(error.message) (see \(helpCommand))")
            return .usage
        } catch let error as CommandError {
            console.error(error.message)
            return error.status
        } catch let error as IPDataError {
            console.error(error.commandLineMessage)
            return .lookupFailed
        } catch {
            console.error(error.localizedDescription)
            return .lookupFailed
        }
    }
}
