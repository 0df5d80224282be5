import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ipdata init [KEY]`: stores the API key in the configuration file (mode 0600), from the
/// argument or, without one, from standard input (a prompt that does not echo, on a terminal).
enum InitCommand {
    static let options = [CommonOptions.help, CommonOptions.version]

    static let help = HelpText(
        usage: ["ipdata init [KEY]"],
        summary: """
            Store your API key in $XDG_CONFIG_HOME/ipdata/config (~/.config/ipdata/config when
            XDG_CONFIG_HOME is not set), readable only by you (mode 0600). Without KEY, the key is
            read from standard input, so it stays out of your shell history:

              ipdata init
              ipdata init < key.txt
            """,
        options: options)

    static func run(_ parsed: ParsedArguments, environment: [String: String], console: Console) async throws
        -> ExitStatus
    {
        guard parsed.positionals.count <= 1 else { throw UsageError("init takes one key at most") }
        var given = parsed.positionals.first ?? ""
        if parsed.positionals.isEmpty { given = try await readKey(console: console) }
        guard let key = Configuration.normalized(given) else { throw CommandError(.usage, "the API key is empty") }
        console.addSecret(key)
        guard !key.contains(where: { $0.isWhitespace }) else {
            throw CommandError(.usage, "an API key has no spaces or line breaks")
        }
        let url = try Configuration.store(apiKey: key, environment: environment)
        console.printOutput("Saved the API key to \(url.path) (mode 0600).\n")
        return .success
    }

    /// The longest key `ipdata init` reads: 4 KiB. The API's keys have 56 characters; a longer
    /// first line is some other file, or a stream without line ends such as `/dev/zero`.
    static let maximumKeyLength = 4096

    /// The first line of standard input; on a terminal, after a prompt, without echoing it.
    private static func readKey(console: Console) async throws -> String {
        let reader = LineReader.standardInput(maximumLineLength: maximumKeyLength, expected: "the API key on one line")
        guard isatty(STDIN_FILENO) == 1 else { return try await reader.nextLine() ?? "" }
        FileHandle.standardError.write(Data("API key: ".utf8))
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &hidden)
        }
        defer {
            if canHide { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return try await reader.nextLine() ?? ""
    }
}
