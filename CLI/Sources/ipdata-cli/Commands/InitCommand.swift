import ArgumentParser
import CLILibC
import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ipdata init [KEY]`: checks the API key with one lookup of the caller's own address and
/// stores it in the configuration file (mode 0600), from the argument or, without one, from
/// standard input (a prompt that does not echo, on a terminal). A key the API refuses is not
/// stored; a key that could not be checked (no network) is stored, with a warning.
struct InitCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "store your API key",
        usage: "ipdata init [OPTIONS] [KEY]",
        discussion: HelpProse.flowed(
            """
            Check your API key with one lookup of your own address, then store it in
            $XDG_CONFIG_HOME/ipdata/config (~/.config/ipdata/config when XDG_CONFIG_HOME is not set),
            readable only by you (mode 0600). The file may be a symbolic link; the key goes to the file
            it points to. Without KEY, the key is read from standard input, so it stays out of your
            shell history and out of `ps`:

              ipdata init
              ipdata init < key.txt

            A key the API refuses is not stored (exit status 3). When the API cannot be reached (no
            network), the key is stored all the same, with a warning that it was not checked (exit
            status 0). No key yet? Get a free one at \(Configuration.signUpURL).
            """))

    @OptionGroup var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(help: ArgumentHelp("the API key; none: read from standard input", valueName: "KEY"))
    var keys: [String] = []

    mutating func validate() throws {
        try checked {
            try client.refuse()
            _ = try CommonOptions.baseURL(endpoint)
        }
    }

    /// The most seconds the check may take: long enough for a slow network, short enough not to
    /// keep someone without one waiting.
    static let checkTimeout = 15

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        guard keys.count <= 1 else { throw UsageError("init takes one key at most") }
        let baseURL = try CommonOptions.baseURL(endpoint)
        var given = keys.first ?? ""
        if keys.isEmpty { given = try await Self.readKey(console: console) }
        guard let key = Configuration.normalized(given) else {
            throw CommandError(.usage, "the API key is empty: get a free key at \(Configuration.signUpURL)")
        }
        console.addSecret(key)
        guard !key.contains(where: { $0.isWhitespace }) else {
            throw CommandError(.usage, "an API key has no spaces or line breaks")
        }
        let unchecked = try await Self.check(key, baseURL: baseURL, console: console)
        let url = try Configuration.store(apiKey: key, environment: environment)
        if let unchecked {
            console.note("warning: could not check the key (\(unchecked)); saved it all the same")
            console.printOutput("Saved the API key to \(url.path) (mode 0600), unchecked.\n")
        } else {
            console.printOutput("Checked the API key and saved it to \(url.path) (mode 0600).\n")
        }
        return .success
    }

    /// Looks up the caller's own address once with `key`. Throws (exit status 3) when the API
    /// refuses the key; returns why the key could not be checked, or nil when the API accepted it.
    /// A 403 (quota, plan, allow-list) means the API knows the key: the key is good, and
    /// `console` says why the lookup was refused.
    private static func check(_ key: String, baseURL: URL, console: Console) async throws -> String? {
        let session = URLSessionConfiguration.ephemeral
        session.timeoutIntervalForRequest = TimeInterval(checkTimeout)
        let client = IPDataClient(
            apiKey: key,
            configuration: IPDataClient.Configuration(
                baseURL: baseURL, connection: .owned(session), deadline: TimeInterval(checkTimeout)))
        do {
            _ = try await client.lookup(fields: ["ip"])
            return nil
        } catch IPDataError.unauthorized(let message) {
            throw CommandError(
                .keyRefused,
                "the API refused this key (\(message)), so it was not saved: copy it again from your account, "
                    + "or get a free key at \(Configuration.signUpURL)")
        } catch let error as IPDataError where error.exitStatus == .quotaExhausted {
            console.note("the API knows the key but refused the lookup: \(error.commandLineMessage)")
            return nil
        } catch let error as IPDataError {
            return error.commandLineMessage
        }
    }

    /// The longest key `ipdata init` reads: 4 KiB. The API's keys have 56 characters; a longer
    /// first line is some other file, or a stream without line ends such as `/dev/zero`.
    static let maximumKeyLength = 4096

    /// The first line of standard input; on a terminal, after a prompt, without echoing it.
    private static func readKey(console: Console) async throws -> String {
        let reader = LineReader.standardInput(maximumLineLength: maximumKeyLength, expected: "the API key on one line")
        guard isatty(STDIN_FILENO) == 1 else { return try await reader.nextLine() ?? "" }
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
        // The prompt once echo is off: what is typed after it is never shown. (Ctrl-C here:
        // `Interruption` puts the terminal's settings back.)
        FileHandle.standardError.write(Data("API key (get a free one at \(Configuration.signUpURL)): ".utf8))
        return try await reader.nextLine() ?? ""
    }
}
