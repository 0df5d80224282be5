import IPData

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

    /// What completes the value of an option.
    enum ValueCompletion: Equatable {
        /// A value of the user's own (a key, a URL, a number): nothing is offered, not even files.
        case nothing
        case files
        /// One of these words.
        case words([String])
        /// A comma-separated list of these words (`ip,country_code`).
        case list([String])
    }

    /// What completes the value of `option`, from the option itself (its `choices`) or from the
    /// type that reads its value: the formats, `enrich`'s shapes, the API's field names.
    static func valueCompletion(of option: OptionSpec) -> ValueCompletion {
        if !option.choices.isEmpty { return .words(option.choices) }
        switch option {
        case CommonOptions.format, BulkCommand.formatOption: return .words(OutputFormat.allCases.map(\.rawValue))
        case EnrichCommand.asOption: return .words(EnrichCommand.Shape.allCases.map(\.rawValue))
        case CommonOptions.fields, EnrichCommand.fieldsOption: return .list(fieldWords)
        case LookupCommand.fieldOption: return .words(fieldWords)
        default: return option.valueName == "FILE" ? .files : .nothing
        }
    }

    /// The fields an address's lookup has, and the dotted paths of the default CSV columns
    /// (`asn.name`, `threat.is_threat`).
    static var fieldWords: [String] {
        var words = IPResponse.fieldNames
        for path in Columns.addressCSV where !words.contains(path) { words.append(path) }
        return words
    }

    /// The words an option is written as: `--fields`, `-f`.
    private static func spellings(_ option: OptionSpec) -> [String] {
        ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? [])
    }

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

    /// The bash function. Each command completes its own options' values (`summarize --format`
    /// is not `bulk --format`); without a suggestion, bash offers nothing rather than files
    /// (`compopt +o default`; zsh's bashcompinit has no `compopt`, and keeps its default).
    private static var bashFunction: String {
        var lines = [
            "_ipdata_words() {",
            "    COMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))",
            "    type compopt &>/dev/null && compopt +o default 2>/dev/null",
            "}",
            "_ipdata_list() {",
            "    local head=\"\" tail=\"$cur\"",
            "    if [[ \"$cur\" == *,* ]]; then head=\"${cur%,*},\" tail=\"${cur##*,}\"; fi",
            "    COMPREPLY=($(compgen -W \"$1\" -- \"$tail\"))",
            "    COMPREPLY=(\"${COMPREPLY[@]/#/$head}\")",
            "    type compopt &>/dev/null && compopt +o default -o nospace 2>/dev/null",
            "}",
            "_ipdata() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" command=\"\" i",
            "    local fields=\"\(fieldWords.joined(separator: " "))\"",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case \"${COMP_WORDS[i]}\" in",
            "        \(commandWords.map(\.rawValue).joined(separator: "|"))) command=\"${COMP_WORDS[i]}\"; break ;;",
            "        esac",
            "    done",
            "    case \"$command\" in",
        ]
        for command in IPDataCommand.Command.allCases {
            lines.append("    \(command == .lookup ? "\"\"" : command.rawValue))")
            lines.append("        case \"$prev\" in")
            for option in command.options where option.takesValue {
                let pattern = spellings(option).joined(separator: "|")
                switch valueCompletion(of: option) {
                case .files: lines.append("        \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
                case .words(let words):
                    lines.append("        \(pattern)) _ipdata_words \"\(shellWords(words))\"; return ;;")
                case .list(let words):
                    lines.append("        \(pattern)) _ipdata_list \"\(shellWords(words))\"; return ;;")
                case .nothing: lines.append("        \(pattern)) _ipdata_words \"\"; return ;;")
                }
            }
            lines.append("        esac")
            let options = command.options.flatMap(spellings).joined(separator: " ")
            lines.append("        if [[ \"$cur\" == -* ]]; then")
            lines.append("            COMPREPLY=($(compgen -W \"\(options)\" -- \"$cur\"))")
            if readsFiles(command) {
                lines.append("        else")
                lines.append("            COMPREPLY=($(compgen -f -- \"$cur\"))")
            } else if let words = positionalWords(command) {
                lines.append("        else")
                lines.append("            COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\"))")
            }
            lines.append("        fi ;;")
        }
        lines += ["    esac", "}", "complete -o default -F _ipdata ipdata", ""]
        return lines.joined(separator: "\n")
    }

    /// `words` for a bash double-quoted string: `$fields` for the field names, which the
    /// function holds once.
    private static func shellWords(_ words: [String]) -> String {
        words == fieldWords ? "$fields" : words.joined(separator: " ")
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
                    switch valueCompletion(of: option) {
                    case .files: line += " -r -F"
                    case .words(let values), .list(let values):
                        line += " -x -a \(quoted(values.joined(separator: " ")))"
                    case .nothing: line += " -x"
                    }
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
