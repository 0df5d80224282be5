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
final class Console {
    /// `--quiet`: routine notices (the summary, `sandbox: sample data`) and the progress line are
    /// left out, for cron; errors, and what to do after a stop, are still printed.
    var isQuiet = false
    private var keys: [String] = []
    private var redaction = KeyRedaction(apiKeys: [])
    private var statusShown = false
    private let standardError = FileHandle.standardError

    /// A console that redacts the keys of the command line (every `--api-key` given) and of
    /// `environment` (`IPDATA_API_KEY`).
    convenience init(parsed: ParsedArguments, environment: [String: String]) {
        let fromEnvironment = environment[Configuration.keyVariable].map { [$0] } ?? []
        self.init(keys: parsed.allValues(CommonOptions.apiKey.name) + fromEnvironment)
    }

    /// A console that redacts `keys`.
    init(keys: [String]) {
        self.keys = keys
        self.redaction = KeyRedaction(apiKeys: keys)
    }

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

    /// Prints `ipdata: <message>` on standard error, on one line, control characters escaped.
    func error(_ message: String) {
        clearStatus()
        writeError("ipdata: \(TerminalText.escaped(oneLine(message)))\n")
    }

    /// Prints a routine notice, `ipdata: <message>`, on standard error, on one line, unless
    /// `isQuiet`.
    func note(_ message: String) {
        guard !isQuiet else { return }
        error(message)
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
        FileHandle.standardOutput.write(Data(redact(text).utf8))
    }

    private func writeError(_ text: String) {
        standardError.write(Data(text.utf8))
    }
}
