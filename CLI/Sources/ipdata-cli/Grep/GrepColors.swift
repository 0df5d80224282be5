import ArgumentParser

/// When `ipdata grep` colours what it prints (`--color[=WHEN]`), and the sequences it colours
/// with: GNU grep's defaults, so that a terminal shows both tools' output alike.
enum GrepColors: String, CaseIterable, ExpressibleByArgument {
    /// When standard output is a terminal, `TERM` is set and not `dumb`, and `NO_COLOR` is unset
    /// or empty.
    case auto
    /// Always, to a pipe or a file too, and with `NO_COLOR` set: an option given for one run wins
    /// over the environment, as no-color.org asks.
    case always
    case never

    /// Whether a run colours its output, standard output being a terminal or not.
    func isOn(environment: [String: String], isTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            guard let term = environment["TERM"], term != "dumb" else { return false }
            return isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }

    /// Before an address (GNU grep's `mt=01;31`: bold red), then erasing to the line's end so
    /// that the colour does not bleed into it.
    static let matchStart = "\u{1B}[01;31m\u{1B}[K"
    /// Before a file name (`fn=35`: magenta).
    static let fileNameStart = "\u{1B}[35m\u{1B}[K"
    /// Before the `:` after a file name (`se=36`: cyan).
    static let separatorStart = "\u{1B}[36m\u{1B}[K"
    /// After each coloured part.
    static let end = "\u{1B}[m\u{1B}[K"

    /// The arguments with a bare `--color` before `--` given its value, `auto`, as
    /// GNU grep reads it: ArgumentParser's options have no optional value, so it would take the
    /// next argument, a file name, for it.
    static func withDefaultValue(_ arguments: [String]) -> [String] {
        var seenEnd = false
        return arguments.map { argument in
            if argument == "--" { seenEnd = true }
            guard !seenEnd, argument == "--color" else { return argument }
            return argument + "=auto"
        }
    }
}
