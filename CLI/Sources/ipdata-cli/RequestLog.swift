import CLILibC
import Foundation
import IPData

/// `--verbose`: one line on standard error for each request the client sends, as it ends, from
/// whichever thread ends it: `ipdata: GET https://api.ipdata.co/8.8.8.8?api-key=REDACTED → 200 (12 ms)`.
///
/// The library already puts `REDACTED` in place of the key; the line is redacted once more with
/// every key the console knows, and its control characters are written out, as the console's are.
/// The progress bar is off with `--verbose`: these lines would cut through it.
final class RequestLog: Sendable {
    private let redaction: KeyRedaction
    /// Held while a line is written, so that the lines of concurrent requests never mix.
    private let writing = Locked(())

    init(redaction: KeyRedaction) {
        self.redaction = redaction
    }

    /// Writes the line of `request`; the client's observer calls it (`SentRequestObserver`).
    func record(_ request: SentRequest) {
        let bytes = Array(
            ("ipdata: " + TerminalText.escaped(redaction.redact(Self.line(for: request))) + "\n").utf8)
        writing.withLock { _ in
            _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// `GET URL → 200 (12 ms)`, or for a request that got no answer, `GET URL → Network error: … (30000 ms)`.
    static func line(for request: SentRequest) -> String {
        let outcome =
            request.statusCode.map(String.init)
            ?? request.failure.map { $0.commandLineMessage } ?? "no answer"
        let milliseconds = Int((request.duration * 1000).rounded())
        let text = "\(request.method) \(request.url.absoluteString) → \(outcome) (\(milliseconds) ms)"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
