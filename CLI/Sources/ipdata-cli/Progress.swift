import Foundation
import IPData

/// What a lookup stream reports through `LookupStreamOptions.onEvent`, from any thread: whether
/// the plan refused bulk requests. (The requests are counted by `RequestTally`, which sees every
/// attempt; the stream reports each call once, however many times it was sent.)
final class StreamEvents: Sendable {
    private struct Counts {
        var switched = false
        var switchReported = false
    }

    private let counts = Locked(Counts())
    /// Prints a notice on standard error at once, from the thread of the event.
    private let announce: @Sendable (String) -> Void

    /// The notice of the switch to single lookups.
    static let switchNotice = "this API key's plan does not allow bulk requests: continuing with single lookups"

    /// - Parameter announce: Prints a notice at once; by default a line on standard error (after
    ///   clearing a progress bar on a terminal).
    init(announce: @escaping @Sendable (String) -> Void = StreamEvents.printOnStandardError) {
        self.announce = announce
    }

    /// Records one event; pass this as `onEvent`. The switch to single lookups is announced at
    /// once, before the first single lookup goes out (it may take a while to come back).
    func record(_ event: LookupStreamEvent) {
        let announces = counts.withLock { counts -> Bool in
            switch event {
            case .requestSent:
                return false
            case .switchedToSingleLookups:
                counts.switched = true
                defer { counts.switchReported = true }
                return !counts.switchReported
            }
        }
        if announces { announce(Self.switchNotice) }
    }

    /// `ipdata: TEXT` on standard error, on a line of its own.
    @Sendable static func printOnStandardError(_ text: String) {
        let clear = Terminal.isTerminal(2) ? "\r\u{1B}[K" : ""
        try? OutputSink.current?.flush()
        FileHandle.standardError.write(Data((clear + "ipdata: " + text + "\n").utf8))
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
/// summary at the end (records, failures, requests sent, time elapsed). The requests are those
/// `requests` counted: every attempt that may have reached the server, retries included.
///
/// The bar is fitted to the terminal's width (`Terminal.width`, asked at each redraw, so a
/// resized window is followed) and never reaches its last column, so it never wraps. When the
/// records go to the same terminal, the bar is cleared before each record and drawn again after
/// it (see `writer(clearingTheBarBefore:recordsOnStandardOutput:)`), so that no record line
/// carries a piece of it.
final class Progress {
    /// What the stream reports; its `record(_:)` is the stream's `onEvent`.
    let events = StreamEvents()
    /// How many records were written, and how many of them were failures.
    private(set) var records = 0
    private(set) var failures = 0
    /// How many of the failures are private or reserved addresses, answered without a request.
    private(set) var answeredLocally = 0

    /// How many answers came from the disk cache so far, when the run reads it.
    var cacheHits: (() -> Int)?
    /// The requests the run's client sent.
    let requests: RequestTally

    private let console: Console
    private let showsBar: Bool
    private let total: Int?
    private let start = ProcessInfo.processInfo.systemUptime
    private let columnsVariable = ProcessInfo.processInfo.environment["COLUMNS"]
    private var lastDrawn: TimeInterval = 0

    /// - Parameters:
    ///   - showsBar: Draw the bar; see `shouldShowBar(noProgress:)`.
    ///   - total: How many addresses there are, when known; the bar then shows a percentage.
    ///   - requests: What counts the requests (the process's run by default).
    init(console: Console, showsBar: Bool, total: Int? = nil, requests: RequestTally = .run) {
        self.console = console
        self.showsBar = showsBar
        self.total = total
        self.requests = requests
    }

    /// Whether the bar is drawn: standard error is a terminal and `--no-progress` was not given.
    static func shouldShowBar(noProgress: Bool) -> Bool {
        !noProgress && Terminal.isTerminal(2)
    }

    /// `writer`, or when the bar is drawn and records go to standard output on a terminal, a
    /// writer that clears the bar before each record (the next `recordWritten` draws it again).
    ///
    /// - Parameter recordsOnStandardOutput: The records go to standard output (no `--output`
    ///   file, or `--output -`).
    func writer(clearingTheBarBefore writer: RecordWriter, recordsOnStandardOutput: Bool) -> RecordWriter {
        guard showsBar, recordsOnStandardOutput, Terminal.isTerminal(1) else { return writer }
        return BarClearingWriter(writer: writer, console: console)
    }

    /// Counts one written record and redraws the bar: at most ten times a second, and at once
    /// when a record or a message cleared it.
    func recordWritten(failed: Bool, answeredLocally local: Bool = false) {
        records += 1
        if failed { failures += 1 }
        if local { answeredLocally += 1 }
        reportSwitchIfNeeded()
        guard showsBar else { return }
        let now = ProcessInfo.processInfo.systemUptime
        guard now - lastDrawn >= 0.1 || !console.isStatusShown else { return }
        lastDrawn = now
        console.showStatus(
            Self.barText(
                records: records, total: total, requests: requests.sent, elapsed: now - start,
                width: Terminal.width(of: [2], columnsVariable: columnsVariable)))
    }

    /// Says, once, that the stream went on with single lookups, if `events` has not yet.
    func reportSwitchIfNeeded() {
        if events.takeSwitchToSingleLookups() { console.note(StreamEvents.switchNotice) }
    }

    /// Removes the bar and prints the summary line; `notAttempted` says what a stopped run left
    /// alone (`6000 not attempted`).
    func printSummary(notAttempted: String? = nil) {
        reportSwitchIfNeeded()
        console.clearStatus()
        console.note(
            Self.summaryText(
                records: records, failures: failures, notAttempted: notAttempted, requests: requests.sent,
                cached: cacheHits?() ?? 0, elapsed: ProcessInfo.processInfo.systemUptime - start))
        // Apart, and short: the summary fits a terminal of 60 columns.
        if answeredLocally > 0 { console.note("\(answeredLocally) private or reserved, answered locally") }
    }

    /// The bar, in fewer than `width` columns: `[#####-----]  33%  330/1000 records  4 requests  1.2 s`
    /// (the bar part from 30 characters down to 10 as the width needs), else without the bar,
    /// else only the share and the records, else that cut with `…`. Without a total:
    /// `330 records  4 requests  1.2 s`, else `330 records`.
    static func barText(records: Int, total: Int?, requests: Int, elapsed: TimeInterval, width: Int) -> String {
        let room = width - 1
        let counts = "\(plural(requests, "request"))  \(seconds(elapsed))"
        guard let total, total > 0 else {
            let candidates = ["\(plural(records, "record"))  \(counts)", plural(records, "record")]
            return candidates.first { $0.count <= room } ?? TerminalText.truncated(candidates[1], toWidth: room)
        }
        let fraction = min(1, Double(records) / Double(total))
        let percent = String(Int((fraction * 100).rounded(.down)))
        let share = String(repeating: " ", count: max(0, 3 - percent.count)) + percent + "%"
        let done = "\(records)/\(total) records"
        let text = "\(share)  \(done)  \(counts)"
        let barLength = min(30, room - 3 - text.count)
        if barLength >= 10 {
            let filled = Int((fraction * Double(barLength)).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barLength - filled)
            return "[\(bar)] \(text)"
        }
        let shorter = "\(share)  \(done)"
        return text.count <= room ? text : TerminalText.truncated(shorter, toWidth: room)
    }

    /// The summary: `10000 records, 1 failed, 100 requests sent, 2.4 s elapsed`, with
    /// `6000 not attempted` before the requests when the run stopped, and `9000 answers from the
    /// cache` after them when any came from there.
    static func summaryText(
        records: Int, failures: Int, notAttempted: String? = nil, requests: Int, cached: Int = 0,
        elapsed: TimeInterval
    ) -> String {
        "\(plural(records, "record")), \(failures) failed, " + (notAttempted.map { $0 + ", " } ?? "")
            + "\(plural(requests, "request")) sent, "
            + (cached > 0 ? "\(plural(cached, "answer")) from the cache, " : "") + "\(seconds(elapsed)) elapsed"
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        String(format: "%.1f s", interval)
    }
}

/// A record writer that clears the progress bar before each record: the records and the bar
/// share one terminal.
private final class BarClearingWriter: RecordWriter {
    private let writer: RecordWriter
    private let console: Console

    init(writer: RecordWriter, console: Console) {
        self.writer = writer
        self.console = console
    }

    func write(_ record: Record) throws {
        console.clearStatus()
        try writer.write(record)
    }

    func write(json: Data, isCompact: Bool, orRecord record: () throws -> Record) throws {
        console.clearStatus()
        try writer.write(json: json, isCompact: isCompact, orRecord: record)
    }

    var printsJSON: Bool { writer.printsJSON }

    func finish() throws {
        console.clearStatus()
        try writer.finish()
    }
}
