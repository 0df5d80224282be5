/// One option a command accepts: `--name`, perhaps `-x`, with or without a value.
struct OptionSpec: Equatable, Sendable {
    /// The long name, without the dashes: `fields` for `--fields`.
    let name: String
    /// The one-letter form, `f` for `-f`, if there is one.
    let short: Character?
    /// What the value stands for in help (`a,b,c`), or nil for a flag that takes no value.
    let valueName: String?
    /// One line for the help text.
    let help: String
    /// The words the value may be, when it is one of a few (`table`, `json`): what shells'
    /// completion offers. Empty for any other value.
    let choices: [String]

    init(
        _ name: String, short: Character? = nil, value valueName: String? = nil, choices: [String] = [], help: String
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.choices = choices
        self.help = help
    }

    var takesValue: Bool { valueName != nil }

    /// How the option is written in help: `-f, --fields a,b,c`.
    var synopsis: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? "    \(long)"
    }
}

/// What a command line said: the options by long name, and the positional arguments in order.
struct ParsedArguments: Equatable {
    /// Every value given to each option, in order (`-f a -f b` gives two).
    private(set) var values: [String: [String]] = [:]
    /// The flags given.
    private(set) var flags: Set<String> = []
    /// The arguments that are not options, in order; `-` is one, and so is everything after `--`.
    private(set) var positionals: [String] = []
    /// How many of `positionals` came before `--` (all of them when there was none).
    private(set) var positionalsBeforeDoubleDash = 0
    /// What could not be understood, in order; the first is the one to report.
    private(set) var problems: [UsageError] = []

    /// The long names of every option and flag given.
    var givenOptions: Set<String> { flags.union(values.keys) }

    /// Whether the flag `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`; the last one when it was given more than once.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of `--name`, in order.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    mutating func add(_ value: String, for name: String) { values[name, default: []].append(value) }
    mutating func addFlag(_ name: String) { flags.insert(name) }
    mutating func addPositional(_ argument: String, beforeDoubleDash: Bool) {
        positionals.append(argument)
        if beforeDoubleDash { positionalsBeforeDoubleDash += 1 }
    }
    mutating func addProblem(_ problem: UsageError) { problems.append(problem) }

    /// Takes the first positional argument out (the command word).
    mutating func removeFirstPositional() {
        positionals.removeFirst()
        positionalsBeforeDoubleDash = max(0, positionalsBeforeDoubleDash - 1)
    }
}

/// A command line that cannot be understood. The message names options but never repeats a
/// value, which could be an API key.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}

/// What a mistyped word was meant to be: a command, an option, a field.
enum Spelling {
    /// The word of `known` nearest to `word` in edits (case aside), when it is a likely typo: at
    /// most one edit away for words of up to four letters, two for longer ones; nil otherwise.
    static func closest(to word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased())
        let limit = typed.count >= 5 ? 2 : 1
        let scored = known.map { ($0, editDistance(typed, Array($0.lowercased()))) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The edits from `a` to `b`: insertions, deletions, substitutions and swaps of two
    /// neighbouring letters (`ctiy` is one edit from `city`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var (beforePrevious, previous) = ([Int](), Array(0...b.count))
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                var edits = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { edits = min(edits, beforePrevious[j - 1] + 1) }
                current.append(edits)
            }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }
}

/// A small parser for the command lines of `ipdata`'s commands.
///
/// It knows `--name`, `--name value`, `--name=value`, `-x`, `-x value` and `-xvalue`; `--` ends
/// the options, and `-` alone is a positional argument (standard input). A value may not start
/// with `--` unless it is attached with `=`, so `--fields --eu` is a missing value, not a field
/// list named `--eu`. An option the command does not know is an error.
struct ArgumentParser {
    let options: [OptionSpec]

    /// Reads every argument once; what cannot be understood is collected in `problems`, so that
    /// `--help` can still win over a mistake elsewhere on the line.
    func read(_ arguments: [String]) -> ParsedArguments {
        var parsed = ParsedArguments()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                for positional in remaining { parsed.addPositional(positional, beforeDoubleDash: false) }
                break
            }
            do {
                if argument == "-" || !argument.hasPrefix("-") {
                    parsed.addPositional(argument, beforeDoubleDash: true)
                } else if argument.hasPrefix("--") {
                    try parseLong(argument.dropFirst(2), remaining: &remaining, into: &parsed)
                } else {
                    try parseShort(argument.dropFirst(), remaining: &remaining, into: &parsed)
                }
            } catch let problem as UsageError {
                parsed.addProblem(problem)
            } catch {
                parsed.addProblem(UsageError("\(error)"))
            }
        }
        return parsed
    }

    /// `read(_:)`, throwing its first problem.
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        let parsed = read(arguments)
        if let problem = parsed.problems.first { throw problem }
        return parsed
    }

    private func parseLong(
        _ body: Substring, remaining: inout ArraySlice<String>, into parsed: inout ParsedArguments
    ) throws {
        let name = String(body.prefix { $0 != "=" })
        let attached = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let option = options.first(where: { $0.name == name }) else {
            let close = Spelling.closest(to: name, among: options.map(\.name))
            throw UsageError("unknown option --\(name)" + (close.map { ": did you mean --\($0)?" } ?? ""))
        }
        guard option.takesValue else {
            if attached != nil { throw UsageError("option --\(name) takes no value") }
            parsed.addFlag(option.name)
            return
        }
        parsed.add(try attached ?? nextValue(for: option, remaining: &remaining), for: option.name)
    }

    private func parseShort(
        _ body: Substring, remaining: inout ArraySlice<String>, into parsed: inout ParsedArguments
    ) throws {
        guard let letter = body.first, let option = options.first(where: { $0.short == letter }) else {
            throw UsageError("unknown option -\(body.prefix(1))")
        }
        var attached = body.dropFirst()
        guard option.takesValue else {
            if !attached.isEmpty { throw UsageError("option -\(letter) takes no value") }
            parsed.addFlag(option.name)
            return
        }
        if attached.hasPrefix("=") { attached = attached.dropFirst() }
        let value = attached.isEmpty ? try nextValue(for: option, remaining: &remaining) : String(attached)
        parsed.add(value, for: option.name)
    }

    private func nextValue(for option: OptionSpec, remaining: inout ArraySlice<String>) throws -> String {
        // A long option, or a known one-letter option (`-h`), is never taken as a value.
        let isOption = { (text: String) in
            text.hasPrefix("--")
                || (text.count == 2 && text.hasPrefix("-") && options.contains { $0.short == text.last })
        }
        guard let next = remaining.first, !isOption(next) else {
            throw UsageError("option --\(option.name) needs a value (\(option.valueName ?? "value"))")
        }
        remaining.removeFirst()
        return next
    }
}

/// The help text of one command: its usage lines, what it does, its commands, and its options.
struct HelpText {
    /// A command that `ipdata --help` lists: its word, and what it does in a line.
    struct Command {
        let name: String
        let summary: String
    }

    let usage: [String]
    let summary: String
    /// The commands listed after the summary (`ipdata`'s help lists every one).
    var commands: [Command] = []
    let options: [OptionSpec]
    var footer: String = ""

    var rendered: String {
        let width = (options.map(\.synopsis.count).max() ?? 0) + 2
        var text = "usage: " + usage.joined(separator: "\n       ") + "\n\n" + summary + "\n"
        if !commands.isEmpty {
            let nameWidth = (commands.map(\.name.count).max() ?? 0) + 2
            text += "\ncommands:\n"
            for command in commands {
                text += "  \(command.name)" + String(repeating: " ", count: nameWidth - command.name.count)
                text += command.summary + "\n"
            }
        }
        if !options.isEmpty {
            text += "\noptions:\n"
            for option in options {
                let padding = String(repeating: " ", count: width - option.synopsis.count)
                text += "  \(option.synopsis)\(padding)\(option.help)\n"
            }
        }
        if !footer.isEmpty { text += "\n" + footer + "\n" }
        return text
    }
}
