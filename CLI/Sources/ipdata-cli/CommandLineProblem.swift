import ArgumentParser
import Foundation

/// A command line that ArgumentParser could not read, or that a command's `validate()` refused,
/// as the one line `ipdata` prints: its own wording (`unknown option --bogus`), never a value
/// (which could be an API key), and how to ask for the command's help.
struct CommandLineProblem {
    /// What is wrong, in the tool's words.
    let message: String
    /// `ipdata --help`, or the help of the command at fault (`ipdata bulk --help`).
    let helpCommand: String

    init(_ error: any Error) {
        message = Self.message(IPDataCommand.message(for: error))
        helpCommand = Self.helpCommand(in: IPDataCommand.fullMessage(for: error))
    }

    /// `ipdata: ` comes before it.
    var line: String { "\(message) (see \(helpCommand))" }

    /// ArgumentParser's message in the tool's words; a message of the tool's own as it is.
    static func message(_ text: String) -> String {
        // `-fip,city`: ArgumentParser takes no value attached to a one-letter option.
        if let (option, value) = match(text, "\n *or: Missing value for '(-[^' ]*)(?: <([^>]*)>)?' in") {
            return "option \(option) takes its value after a space: \(option) \(value ?? "VALUE")"
        }
        let text = String(text.split(separator: "\n").first ?? "")
        if let (name, meant) = match(text, "^Unknown option '([^']*)'(?:\\. Did you mean '([^']*)'\\?)?$") {
            return "unknown option \(shortened(name))" + (meant.map { ": did you mean \($0)?" } ?? "")
        }
        if let (option, value) = match(text, "^Missing value for '([^' ]*)(?: <([^>]*)>)?'$") {
            return "option \(option) needs a value" + (value.map { " (\($0))" } ?? "")
        }
        if let (option, _) = match(text, "^The option '([^']*)' does not take any value") {
            return "option \(option) takes no value"
        }
        if let (option, _) = match(text, "^The value '.*' is invalid for '([^' ]*)") {
            return "\(option) has a value it does not take"
        }
        if match(text, "^(\\d+ )?[Uu]nexpected arguments?") != nil { return "too many arguments" }
        if let (argument, _) = match(text, "^Missing expected argument '([^']*)'") { return "missing \(argument)" }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// `-kSECRET` as `-k`: one-dash letters run together may hold a value.
    private static func shortened(_ name: String) -> String {
        name.hasPrefix("--") || name.count <= 2 ? name : String(name.prefix(2))
    }

    /// The command that ArgumentParser's full message sends the user to (`See 'ipdata bulk
    /// --help'`); `ipdata --help` for the lookup and when it names none.
    static func helpCommand(in fullMessage: String) -> String {
        guard let (command, _) = match(fullMessage, "See '([^']*) --help'"), command != "ipdata lookup" else {
            return "ipdata --help"
        }
        return command + " --help"
    }

    /// The first and second groups of `pattern` in `text`, if it matches.
    private static func match(_ text: String, _ pattern: String) -> (String, String?)? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let found = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let first = Range(found.range(at: 1), in: text).map({ String(text[$0]) }) ?? Optional("")
        else { return nil }
        let second = found.numberOfRanges > 2 ? Range(found.range(at: 2), in: text).map { String(text[$0]) } : nil
        return (first, second)
    }
}
