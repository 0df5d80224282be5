/// The discussion of a command's help as ArgumentParser wraps it: each paragraph on one line, so
/// that it is wrapped to the terminal's width, and indented lines (examples, lists) kept as
/// they are; and help made to fit that width where ArgumentParser leaves lines longer (the
/// usage lines, which it prints as they are written).
enum HelpProse {
    /// The width help is wrapped to: `COLUMNS`, else standard output's terminal, else 80 (as
    /// ArgumentParser's own wrapping).
    static var width: Int { Terminal.width(of: [1]) }

    /// Whether `text`, printed for a command line that exits 0, is help (rather than the
    /// version or shell completion's answers, which must stay as they are).
    static func isHelp(_ text: String) -> Bool {
        text.hasPrefix("OVERVIEW:") || text.hasPrefix("USAGE:")
    }

    /// `help` with each line wider than `width` broken at its spaces, each further line indented
    /// two more than the line's own indentation (a usage line's: past `USAGE: `). A line that
    /// cannot be broken (one long word) stays as it is.
    static func fitted(_ help: String, width: Int = width) -> String {
        help.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard TerminalText.width(line) > width else { return String(line) }
            let indentation = line.prefix { $0 == " " }.count
            let hanging = (line.hasPrefix("USAGE: ") ? "USAGE: ".count : indentation) + 2
            let lines = TerminalText.wrapped(
                String(line.dropFirst(indentation)), firstWidth: width - indentation, width: width - hanging)
            let first = String(repeating: " ", count: indentation) + lines[0]
            return ([first] + lines.dropFirst().map { String(repeating: " ", count: hanging) + $0 })
                .joined(separator: "\n")
        }
        .joined(separator: "\n")
    }

    /// `text` with the lines of each paragraph joined by spaces; blank and indented lines, and
    /// the line after either, start a new line.
    static func flowed(_ text: String) -> String {
        var lines: [String] = []
        var joins = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let isProse = !line.isEmpty && !line.hasPrefix(" ")
            if isProse, joins, let last = lines.popLast() {
                lines.append(last + " " + line)
            } else {
                lines.append(String(line))
            }
            joins = isProse
        }
        return lines.joined(separator: "\n")
    }
}
