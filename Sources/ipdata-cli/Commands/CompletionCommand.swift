/// `ipdata completion bash|zsh|fish`: a completion script for the shell, written from the same
/// command table the parser reads (`IPDataCommand.Command` and each command's `options`), so that
/// it cannot drift from what `ipdata` accepts.
enum CompletionCommand {
    static let options = [CommonOptions.help, CommonOptions.version]

    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static let help = HelpText(
        usage: ["ipdata completion bash | zsh | fish"],
        summary: """
            Print a completion script for the shell: commands, options, formats and files.

              ipdata completion bash > ~/.local/share/bash-completion/completions/ipdata
              ipdata completion zsh > "${fpath[1]}/_ipdata"
              ipdata completion fish > ~/.config/fish/completions/ipdata.fish
            """,
        options: options)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitStatus {
        let shells = Shell.allCases.map(\.rawValue).joined(separator: " | ")
        guard parsed.positionals.count == 1, let shell = Shell(rawValue: parsed.positionals[0]) else {
            throw UsageError("completion takes one shell: ipdata completion \(shells)")
        }
        console.printOutput(script(for: shell))
        return .success
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return "# bash completion for ipdata (ipdata completion bash)\n" + bashFunction
        case .zsh:
            return """
                #compdef ipdata
                # zsh completion for ipdata (ipdata completion zsh): the bash completion, through bashcompinit.
                autoload -U +X bashcompinit && bashcompinit

                """ + bashFunction
        case .fish: return fishScript
        }
    }

    /// The commands that take a word (all but the lookup).
    private static var commandWords: [IPDataCommand.Command] {
        IPDataCommand.Command.allCases.filter { $0 != .lookup }
    }

    /// Every option that takes a value, of every command, once.
    private static var valueOptions: [OptionSpec] {
        var seen: Set<String> = []
        return IPDataCommand.Command.allCases.flatMap(\.options).filter {
            $0.takesValue && seen.insert($0.name).inserted
        }
    }

    /// The words an option is written as: `--fields`, `-f`.
    private static func spellings(_ option: OptionSpec) -> [String] {
        ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? [])
    }

    /// What completes the value of `option`: files, the formats, or nothing to suggest.
    private static func valueWords(_ option: OptionSpec) -> String? {
        option.name == CommonOptions.format.name ? OutputFormat.allCases.map(\.rawValue).joined(separator: " ") : nil
    }

    private static func takesFile(_ option: OptionSpec) -> Bool { option.valueName == "FILE" }

    /// What the positional arguments of `command` are: files, commands, shells, or nothing.
    private static func positionalWords(_ command: IPDataCommand.Command) -> String? {
        switch command {
        case .lookup: return commandWords.map(\.rawValue).joined(separator: " ")
        case .help: return commandWords.map(\.rawValue).joined(separator: " ")
        case .completion: return Shell.allCases.map(\.rawValue).joined(separator: " ")
        case .cache: return CacheCommand.Action.allCases.map(\.rawValue).joined(separator: " ")
        case .bulk, .grep, .enrich, .summarize, .`init`, .man: return nil
        }
    }

    private static func readsFiles(_ command: IPDataCommand.Command) -> Bool {
        [.bulk, .grep, .enrich, .summarize].contains(command)
    }

    private static var bashFunction: String {
        var lines = [
            "_ipdata() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" command=\"\" i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case \"${COMP_WORDS[i]}\" in",
            "        \(commandWords.map(\.rawValue).joined(separator: "|"))) command=\"${COMP_WORDS[i]}\"; break ;;",
            "        esac",
            "    done",
            "    case \"$prev\" in",
        ]
        for option in valueOptions {
            let pattern = spellings(option).joined(separator: "|")
            if takesFile(option) {
                lines.append("    \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
            } else if let words = valueWords(option) {
                lines.append("    \(pattern)) COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\")); return ;;")
            } else {
                lines.append("    \(pattern)) COMPREPLY=(); return ;;")
            }
        }
        lines += ["    esac", "    case \"$command\" in"]
        for command in IPDataCommand.Command.allCases {
            let options = command.options.flatMap(spellings).joined(separator: " ")
            let words = positionalWords(command).map { " " + $0 } ?? ""
            lines.append("    \(command == .lookup ? "\"\"" : command.rawValue))")
            lines.append("        if [[ \"$cur\" == -* ]]; then")
            lines.append("            COMPREPLY=($(compgen -W \"\(options)\" -- \"$cur\"))")
            if readsFiles(command) {
                lines.append("        else")
                lines.append("            COMPREPLY=($(compgen -f -- \"$cur\"))")
            } else if !words.isEmpty {
                lines.append("        else")
                lines.append("            COMPREPLY=($(compgen -W \"\(words.dropFirst())\" -- \"$cur\"))")
            }
            lines.append("        fi ;;")
        }
        lines += ["    esac", "}", "complete -o default -F _ipdata ipdata", ""]
        return lines.joined(separator: "\n")
    }

    private static var fishScript: String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        let words = commandWords.map(\.rawValue).joined(separator: " ")
        var lines = ["# fish completion for ipdata (ipdata completion fish)", "complete -c ipdata -f"]
        for command in commandWords {
            lines.append(
                "complete -c ipdata -n '__fish_use_subcommand' -a \(command.rawValue) -d \(quoted(command.oneLine))")
        }
        for command in IPDataCommand.Command.allCases {
            let condition =
                command == .lookup
                ? "not __fish_seen_subcommand_from \(words)" : "__fish_seen_subcommand_from \(command.rawValue)"
            for option in command.options {
                var line = "complete -c ipdata -n \(quoted(condition)) -l \(option.name)"
                if let short = option.short { line += " -s \(short)" }
                if option.takesValue {
                    line += takesFile(option) ? " -r -F" : " -x"
                    if let values = valueWords(option) { line += " -a \(quoted(values))" }
                }
                lines.append(line + " -d \(quoted(option.help))")
            }
            if readsFiles(command) { lines.append("complete -c ipdata -n \(quoted(condition)) -F") }
            if [.help, .completion, .cache].contains(command), let values = positionalWords(command) {
                lines.append("complete -c ipdata -n \(quoted(condition)) -a \(quoted(values))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
