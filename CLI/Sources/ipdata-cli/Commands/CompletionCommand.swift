import ArgumentParser
import IPData

/// `ipdata completion bash|zsh|fish`: ArgumentParser's completion script for the shell, made from
/// the commands themselves, so that it cannot drift from what `ipdata` accepts. Each option
/// completes its own values (`summarize --format`: table json; `enrich --as`: the shapes; `-f`:
/// the field names, as a comma-separated list).
struct CompletionCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "print a completion script for bash, zsh or fish",
        usage: "ipdata completion bash | zsh | fish",
        discussion: HelpProse.flowed(
            """
            Print a completion script for the shell: commands, options, formats and files.

              ipdata completion bash > ~/.local/share/bash-completion/completions/ipdata
              ipdata completion zsh > "${fpath[1]}/_ipdata"
              ipdata completion fish > ~/.config/fish/completions/ipdata.fish

            The options of a lookup complete after its command word: ipdata lookup --format ….
            """))

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(
        help: ArgumentHelp("bash, zsh or fish", valueName: "shell"),
        completion: .list(CompletionShell.allCases.map(\.rawValue)))
    var shells: [String] = []

    /// The shell asked for; a usage error unless it is one, alone.
    private func shell() throws -> CompletionShell {
        let names = CompletionShell.allCases.map(\.rawValue).joined(separator: " | ")
        guard shells.count == 1, let shell = CompletionShell(rawValue: shells[0]) else {
            throw UsageError("completion takes one shell: ipdata completion \(names)")
        }
        return shell
    }

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
        }
    }

    func run(environment: [String: String], console: Console) throws -> ExitStatus {
        console.printOutput(Self.script(for: try shell()))
        return .success
    }

    /// ArgumentParser's script for `shell`, without the entries of the `help` command that
    /// ArgumentParser adds beside ipdata's own: its menu line, and in bash and zsh its function,
    /// which comes second and would replace ipdata's (which completes the command names).
    static func script(for shell: CompletionShell) -> String {
        var lines = IPDataCommand.completionScript(for: shell).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        lines.removeAll { $0.contains("Show subcommand help information.") }
        let start = "_ipdata_help() {"
        if let first = lines.firstIndex(of: start), let second = lines[(first + 1)...].firstIndex(of: start),
            let end = lines[second...].firstIndex(of: "}")
        {
            lines.removeSubrange(second...end)
        }
        return lines.joined(separator: "\n")
    }

    /// The fields an address's lookup has, and the dotted paths of the default CSV columns
    /// (`asn.name`, `threat.is_threat`).
    static var fieldWords: [String] {
        var words = IPResponse.fieldNames
        for path in Columns.addressCSV where !words.contains(path) { words.append(path) }
        return words
    }

    /// What completes `--fields`: field names, after the commas of those already typed
    /// (`ip,asn.n` offers `ip,asn.name`).
    static let fieldListCompletion = CompletionKind.custom { _, _, prefix in
        let head = prefix.lastIndex(of: ",").map { String(prefix[...$0]) } ?? ""
        let tail = prefix.dropFirst(head.count)
        return fieldWords.filter { $0.hasPrefix(tail) }.map { head + $0 }
    }
}
