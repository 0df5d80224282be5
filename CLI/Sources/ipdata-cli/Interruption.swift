import CLILibC
import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM: the run ends at once, but cleanly. The output is finished as a
/// run cut short is (`OutputSink.finish()`): a JSON array gets its closing bracket, so what was
/// written still parses, and an `--output` file is left as it was, the partial output kept beside
/// it. The terminal's settings are put back (echo, after Ctrl-C at `ipdata init`'s prompt). Then
/// one line says so, naming the partial output and (for `ipdata bulk`) the command that goes on
/// from it, and one more names the partial outputs of earlier runs, if any; the process exits
/// with 128 plus the signal's number.
enum Interruption {
    /// Installs the handlers; the caller keeps what this returns alive for as long as they should
    /// stay installed.
    static func install() -> [DispatchSourceSignal] {
        // The terminal's settings as the run began, put back on the way out: `ipdata init`
        // turns echo off while it reads the key.
        var settings = termios()
        let terminal = tcgetattr(STDIN_FILENO, &settings) == 0 ? settings : nil
        return [(SIGINT, ExitStatus.interrupted), (SIGTERM, ExitStatus.terminated)].map { signalNumber, status in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                if var terminal { tcsetattr(STDIN_FILENO, TCSANOW, &terminal) }
                end(with: status)
            }
            source.resume()
            return source
        }
    }

    private static func end(with status: ExitStatus) {
        var message = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : ""
        message += "ipdata: interrupted"
        if let problem = OutputSink.current?.finish() { message += ": " + problem }
        message += "\n"
        if let note = OutputSink.current?.partialOutputsNote { message += "ipdata: " + note + "\n" }
        _ = message.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        _exit(status.rawValue)
    }
}
