import Foundation
import IPData

/// What the tool tells the person running it, on standard error: one line per message, each
/// starting with `ipdata: `, and a progress line that is redrawn in place.
///
/// Every message passes through `redact(_:)`, which replaces each known form of the API key with
/// `REDACTED`: the library already keeps the key out of its errors, and this makes sure nothing
/// else (a usage error, an echoed argument) can print it either. Control characters in a message
/// (an escape sequence in an address, or in the API's answer) are written out as `\x1b`, so that
/// they cannot act on the terminal.
///
/// With `--quiet` (`isQuiet`), notices and the progress line are not shown; errors are.
///
/// On a terminal, the `ipdata:` of an error is red, so that errors stand out among notices;
/// never with `NO_COLOR` set (no-color.org), with `TERM=dumb`, or when standard error is not a
/// terminal (see `usesColour(environment:isTerminal:)`). Nothing else is coloured: standard
/// output is data.
final class Console {
    /// `--quiet`: routine notices (the summary, `sandbox: sample data`) and the progress line are
    /// left out, for cron; errors, warnings and what to do after a stop are still printed.
    var isQuiet = false
    private var keys: [String] = []
    private var redaction = KeyRedaction(apiKeys: [])
    private var statusShown = false
    private let standardError = FileHandle.standardError
    /// Whether the `ipdata:` of an error is red.
    let colours: Bool

    /// A console that redacts the keys of the command line (every `--api-key` value given
    /// before `--`, read even when the line cannot be parsed) and of `environment`
    /// (`IPDATA_API_KEY`), and colours errors when standard error is a terminal and
    /// `environment` allows it.
    convenience init(arguments: [String], environment: [String: String]) {
        let fromEnvironment = environment[Configuration.keyVariable].map { [$0] } ?? []
        self.init(
            keys: Self.apiKeys(in: arguments) + fromEnvironment,
            colours: Self.usesColour(environment: environment, isTerminal: Terminal.isTerminal(2)))
    }

    /// The values of `--api-key KEY` and `--api-key=KEY` in `arguments`, up to `--`.
    static func apiKeys(in arguments: [String]) -> [String] {
        let options = arguments.prefix { $0 != "--" }
        return options.indices.compactMap { index in
            let argument = options[index]
            if argument.hasPrefix("--api-key=") { return String(argument.dropFirst("--api-key=".count)) }
            guard argument == "--api-key", index + 1 < options.endIndex else { return nil }
            return options[index + 1]
        }
    }

    /// A console that redacts `keys`, and colours errors when `colours`.
    init(keys: [String], colours: Bool = false) {
        self.keys = keys
        self.redaction = KeyRedaction(apiKeys: keys)
        self.colours = colours
    }

    /// Whether errors are coloured: standard error is a terminal, `NO_COLOR` is unset or empty
    /// (no-color.org: any other value turns colour off), and `TERM` is not `dumb`.
    static func usesColour(environment: [String: String], isTerminal: Bool) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// `ipdata:` in red.
    static let colouredPrefix = "\u{1B}[31mipdata:\u{1B}[0m"

    /// Redacts `key` too (a key read from the configuration file), as the library does: in the
    /// form given and as it appears in a URL.
    func addSecret(_ key: String) {
        keys.append(key)
        redaction = KeyRedaction(apiKeys: keys)
    }

    /// What replaces the known keys now: for a writer on another thread (`RequestLog`).
    var keyRedaction: KeyRedaction { redaction }

    /// `text` with every form of a known key replaced by `REDACTED`.
    func redact(_ text: String) -> String {
        redaction.redact(text)
    }

    /// `text`, redacted, on one line.
    func oneLine(_ text: String) -> String {
        redact(text).split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Prints `ipdata: <message>` on standard error, on one line, control characters escaped;
    /// `ipdata:` in red when `colours`.
    func error(_ message: String) {
        write(message, prefix: colours ? Self.colouredPrefix : "ipdata:")
    }

    /// Prints a routine notice, `ipdata: <message>`, on standard error, on one line, unless
    /// `isQuiet`.
    func note(_ message: String) {
        guard !isQuiet else { return }
        write(message, prefix: "ipdata:")
    }

    /// Prints a warning about the command line, `ipdata: <message>`, on standard error, on one
    /// line: not coloured, but kept by `--quiet` (a typo in a cron job's command must be seen).
    func warning(_ message: String) {
        write(message, prefix: "ipdata:")
    }

    private func write(_ message: String, prefix: String) {
        clearStatus()
        writeError("\(prefix) \(TerminalText.escaped(oneLine(message)))\n")
    }

    /// Shows `text` as the progress line, replacing the one shown before (a terminal only). The
    /// caller makes it narrower than the terminal, so that it never wraps.
    func showStatus(_ text: String) {
        guard !isQuiet else { return }
        writeError("\r\(TerminalText.escaped(oneLine(text)))\u{1B}[K")
        statusShown = true
    }

    /// Whether a progress line is shown now.
    var isStatusShown: Bool { statusShown }

    /// Removes the progress line, if one is shown.
    func clearStatus() {
        guard statusShown else { return }
        writeError("\r\u{1B}[K")
        statusShown = false
    }

    /// Prints help, the version or a notice meant for standard output.
    func printOutput(_ text: String) {
        Self.flushRecords()
        FileHandle.standardOutput.write(Data(redact(text).utf8))
    }

    private func writeError(_ text: String) {
        Self.flushRecords()
        standardError.write(Data(text.utf8))
    }

    /// Writes out the records the output holds (`OutputSink`), so that what is printed here
    /// comes after them wherever both go (`2>&1`); a failure is the output's to report.
    private static func flushRecords() {
        try? OutputSink.current?.flush()
    }
}
