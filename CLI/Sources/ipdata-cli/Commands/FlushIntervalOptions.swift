import ArgumentParser
import Foundation

/// `--flush-interval SECONDS`: how long a command that reads a stream (`bulk`, `enrich`, `ipdata`
/// reading standard input) lets an address wait for others to fill a bulk request before it
/// sends what it has, so that `tail -f access.log | ipdata …` prints each result soon after its
/// line was written.
struct FlushIntervalOptions: ParsableArguments {
    @Option(
        name: .customLong("flush-interval"),
        help: ArgumentHelp(
            "input that may pause (a pipe, a terminal): the longest an address waits for others to fill a bulk "
                + "request before what has come is sent, in seconds, 0 to 3600 (default 1; 0: as soon as the input "
                + "pauses)",
            valueName: "SECONDS"))
    var flushInterval: String?

    /// `--flush-interval`'s default, in seconds.
    static let defaultSeconds: TimeInterval = 1

    /// The interval in seconds, checked: `defaultSeconds` when not given.
    func seconds() throws -> TimeInterval {
        guard let flushInterval else { return Self.defaultSeconds }
        let text = flushInterval.trimmingCharacters(in: .whitespaces)
        guard let seconds = Double(text), seconds.isFinite, (0...3600).contains(seconds) else {
            throw UsageError("--flush-interval must be a number of seconds from 0 to 3600, such as 0.5")
        }
        return seconds
    }
}
