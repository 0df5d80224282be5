import Foundation
import IPData

/// What a lookup stream reports through `LookupStreamOptions.onEvent`, from any thread: how many
/// requests went out, and whether the plan refused bulk requests.
final class StreamEvents: Sendable {
    private struct Counts {
        var requests = 0
        var switched = false
        var switchReported = false
    }

    private let counts = Locked(Counts())

    /// Records one event; pass this as `onEvent`.
    func record(_ event: LookupStreamEvent) {
        counts.withLock { counts in
            switch event {
            case .requestSent: counts.requests += 1
            case .switchedToSingleLookups: counts.switched = true
            }
        }
    }

    /// The requests sent so far: bulk requests, and single lookups after a switch.
    var requestsSent: Int {
        counts.withLock { $0.requests }
    }

    /// True the first time it is asked after the stream switched to single lookups, then false.
    func takeSwitchToSingleLookups() -> Bool {
        counts.withLock { counts in
            guard counts.switched, !counts.switchReported else { return false }
            counts.switchReported = true
            return true
        }
    }
}

/// The progress of a lookup of many addresses, on standard error: a bar redrawn in place while it
/// runs (only when standard error is a terminal and `--no-progress` is not given), and a one-line
/// summary at the end (records, failures, requests sent, time elapsed).
final class Progress {
    /// What the stream reports; its `record(_:)` is the stream's `onEvent`.
    let events = StreamEvents()
    /// How many records were written, and how many of them were failures.
    private(set) var records = 0
    private(set) var failures = 0

    private let console: Console
    private let showsBar: Bool
    private let total: Int?
    private let start = ProcessInfo.processInfo.systemUptime
    private var lastDrawn: TimeInterval = 0

    /// - Parameters:
    ///   - showsBar: Draw the bar; see `shouldShowBar(noProgress:)`.
    ///   - total: How many addresses there are, when known; the bar then shows a percentage.
    init(console: Console, showsBar: Bool, total: Int? = nil) {
        self.console = console
        self.showsBar = showsBar
        self.total = total
    }

    /// Whether the bar is drawn: standard error is a terminal and `--no-progress` was not given.
    static func shouldShowBar(noProgress: Bool) -> Bool {
        !noProgress && isatty(2) == 1
    }

    /// Counts one written record and redraws the bar (at most ten times a second).
    func recordWritten(failed: Bool) {
        records += 1
        if failed { failures += 1 }
        reportSwitchIfNeeded()
        guard showsBar else { return }
        let now = ProcessInfo.processInfo.systemUptime
        guard now - lastDrawn >= 0.1 else { return }
        lastDrawn = now
        console.showStatus(
            Self.barText(records: records, total: total, requests: events.requestsSent, elapsed: now - start))
    }

    /// Says, once, that the stream went on with single lookups.
    func reportSwitchIfNeeded() {
        if events.takeSwitchToSingleLookups() {
            console.note("this API key's plan does not allow bulk requests: continuing with single lookups")
        }
    }

    /// Removes the bar and prints the summary line; `notAttempted` says what a stopped run left
    /// alone (`6000 not attempted`).
    func printSummary(notAttempted: String? = nil) {
        reportSwitchIfNeeded()
        console.clearStatus()
        console.note(
            Self.summaryText(
                records: records, failures: failures, notAttempted: notAttempted, requests: events.requestsSent,
                elapsed: ProcessInfo.processInfo.systemUptime - start))
    }

    /// The bar: `[#####---------]  33%  330/1000 records  4 requests  1.2 s`, or without a total
    /// `330 records  4 requests  1.2 s`.
    static func barText(records: Int, total: Int?, requests: Int, elapsed: TimeInterval) -> String {
        let counts = "\(plural(requests, "request"))  \(seconds(elapsed))"
        guard let total, total > 0 else { return "\(plural(records, "record"))  \(counts)" }
        let fraction = min(1, Double(records) / Double(total))
        let filled = Int((fraction * 30).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
        let percent = String(Int((fraction * 100).rounded(.down)))
        let padded = String(repeating: " ", count: max(0, 3 - percent.count)) + percent
        return "[\(bar)] \(padded)%  \(records)/\(total) records  \(counts)"
    }

    /// The summary: `10000 records, 1 failed, 100 requests sent, 2.4 s elapsed`, with
    /// `6000 not attempted` before the requests when the run stopped.
    static func summaryText(
        records: Int, failures: Int, notAttempted: String? = nil, requests: Int, elapsed: TimeInterval
    ) -> String {
        "\(plural(records, "record")), \(failures) failed, " + (notAttempted.map { $0 + ", " } ?? "")
            + "\(plural(requests, "request")) sent, \(seconds(elapsed)) elapsed"
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        String(format: "%.1f s", interval)
    }
}
