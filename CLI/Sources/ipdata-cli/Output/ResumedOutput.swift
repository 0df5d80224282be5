import CLILibC
import Foundation
import IPData

/// What `ipdata bulk --resume` keeps of an output that an earlier run left, and where it puts it.
///
/// The earlier output is the partial output that a run which did not finish left beside the file
/// (`OutputSink.partialOutputs`: the newest, if it is newer than the file), else the file. Every
/// record of it that has an answer is kept, and its address is not looked up again: the record is
/// written where the address comes in the input, as often as it comes, so that the new output
/// holds one record per address of the input, in input order, as a run never cut short would. A
/// record with an `error` (a failed lookup, a network failure) is left out and its address looked
/// up again; so is a last line the earlier run cut off mid-write. Records whose address the input
/// no longer holds are kept too, at the end. Only where each record is in the earlier output is
/// held in memory, not the record.
///
/// JSON lines and CSV (with the header row that `ipdata bulk` writes) can be resumed; a JSON
/// array cannot, since a cut-off array is no document to add to.
final class ResumedOutput: Sendable {
    /// The earlier output: a partial output beside the file (`isPartial`), or the file.
    let source: String
    let isPartial: Bool
    /// The addresses already answered, in canonical form.
    let done: Set<String>
    /// Records kept, and records left out to be done again.
    let kept: Int
    let redone: Int
    /// Whether the CSV header was copied (the writer must not write it again).
    let copiedHeader: Bool
    /// One line saying what the run continues, and which other partial outputs it leaves.
    let note: String

    private struct State {
        /// The kept records by address, and the addresses in the earlier output's order.
        var places: [String: KeptRecord] = [:]
        var order: [String] = []
        /// The addresses the reader passed over, each with the number of records before it.
        var due: [(key: String, before: Int)] = []
        var dueHead = 0
        /// The records the run's own writer wrote.
        var written = 0
    }

    private let file: Int32
    private let sink: OutputSink
    private let state: Locked<State>

    private init(
        source: String, isPartial: Bool, file: Int32, sink: OutputSink, scan: Scan, note: String
    ) {
        self.source = source
        self.isPartial = isPartial
        self.file = file
        self.sink = sink
        self.done = Set(scan.order)
        self.kept = scan.kept
        self.redone = scan.redone
        self.copiedHeader = scan.header != nil
        self.note = note
        self.state = Locked(State(places: scan.places, order: scan.order))
    }

    /// Continues the earlier output of `sink`'s file (`outputPath` as the user named it), in
    /// `format`; for CSV its header must be `columns`, and is copied into `sink` at once. A file
    /// that does not exist is an empty output. Throws a usage error for a sink that replaces no
    /// file (a stream), and for an output written with other columns.
    static func continuing(
        _ sink: OutputSink, outputPath: String, format: OutputFormat, columns: [String]
    ) throws -> ResumedOutput {
        guard let replaced = sink.replacedFile else {
            throw UsageError("--resume needs --output FILE, a regular file: \(outputPath) is not one")
        }
        var source = replaced.path
        var isPartial = false
        if let newest = sink.partialOutputs.first, newest.modified > replaced.modified ?? 0 {
            (source, isPartial) = (newest.path, true)
        }
        let file = open(source, O_RDONLY | O_CLOEXEC | (isPartial ? O_NOFOLLOW : 0))
        guard file >= 0 || errno == ENOENT else {
            throw CommandError(.usage, "cannot read \(source): \(String(cString: strerror(errno)))")
        }
        let scan = file >= 0 ? try Scan(file, format: format, columns: columns, path: source) : Scan()
        if let header = scan.header { try sink.write(header) }

        let counts =
            "\(scan.kept) record\(scan.kept == 1 ? "" : "s") kept"
            + (scan.redone > 0 ? ", \(scan.redone) failed or cut off (looked up again)" : "")
        var note = "resuming \(outputPath): " + counts
        let others = sink.partialOutputs.map(\.path).filter { $0 != source }
        if isPartial {
            note = "resuming \(outputPath) from the partial output \(source) of a run that did not finish: " + counts
            if !others.isEmpty {
                note += "; it is the newest of \(others.count + 1), the others are left as they were: "
            }
        } else if !others.isEmpty {
            note += "; partial outputs older than it are left as they were: "
        }
        note += others.joined(separator: ", ")

        let resumed = ResumedOutput(
            source: source, isPartial: isPartial, file: file, sink: sink, scan: scan, note: note)
        sink.continues(source, isPartial: isPartial) { (try? resumed.writeRest()) != nil }
        return resumed
    }

    /// Records that the reader passed over `key` (one of `done`) when `before` records had come
    /// before it: its kept record is written there.
    func passedOver(_ key: String, before: Int) {
        state.withLock { $0.due.append((key, before)) }
    }

    /// `writer`, with the kept records written in their places among its records.
    func writer(around writer: RecordWriter) -> RecordWriter {
        InterleavingWriter(writer: writer, resumed: self)
    }

    /// Writes the kept records due before the writer's next record, then that record (`body`).
    fileprivate func writing(_ body: () throws -> Void) throws {
        try state.withLock { state in
            try writeDue(&state, before: state.written)
            try body()
            state.written += 1
        }
    }

    /// Writes every kept record not written yet: those due, in order, then those whose address
    /// the input did not hold. Called at the end of the run, and by the sink if it stops first.
    func writeRest() throws {
        try state.withLock { state in
            try writeDue(&state, before: nil)
            for key in state.order where state.places[key]?.isWritten == false {
                try write(key, &state)
            }
        }
    }

    private func writeDue(_ state: inout State, before limit: Int?) throws {
        while state.dueHead < state.due.count, limit.map({ state.due[state.dueHead].before <= $0 }) ?? true {
            let key = state.due[state.dueHead].key
            state.dueHead += 1
            try write(key, &state)
        }
        if state.dueHead >= 1024, state.dueHead * 2 >= state.due.count {
            state.due.removeFirst(state.dueHead)
            state.dueHead = 0
        }
    }

    private func write(_ key: String, _ state: inout State) throws {
        guard let place = state.places[key] else { return }
        var bytes = [UInt8](repeating: 0, count: place.length)
        let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, place.length, off_t(place.offset)) }
        guard count == place.length else {
            throw CommandError(.lookupFailed, "cannot read \(source) again: \(String(cString: strerror(errno)))")
        }
        try sink.write(Data(bytes))
        state.places[key]?.isWritten = true
    }

    /// The command that continues the output of `ipdata bulk`, for a line that names a partial
    /// output: `ipdata bulk`, then `arguments` (`--resume` and the run's options, the key left
    /// out; see `BulkCommand.resumeArguments`), then the run's `inputs`. In backquotes, with what
    /// standard input must hold again when an input is `-`.
    static func command(arguments: [String], inputs: [String]) -> String {
        var words = ["ipdata", "bulk"] + arguments
        if inputs.contains(where: { $0.hasPrefix("-") && $0 != "-" }) { words.append("--") }
        words += inputs
        let command = "`" + words.map(StreamingLookup.quoted).joined(separator: " ") + "`"
        let readsStandardInput = inputs.isEmpty || inputs.contains("-")
        return readsStandardInput ? command + " with the same standard input" : command
    }
}

/// Where one kept record is in the earlier output, and whether the new output has it yet.
private struct KeptRecord {
    let offset: Int
    let length: Int
    var isWritten = false
}

/// The records of an earlier output, read once: where each answered one is, by address.
private struct Scan {
    var places: [String: KeptRecord] = [:]
    var order: [String] = []
    var kept = 0
    var redone = 0
    /// The CSV header line, with its line end.
    var header: Data?
    /// The index of the `ip` and `error` columns, once the CSV header is read.
    private var csvColumns: (ip: Int, error: Int?)?

    init() {}

    /// Reads the output open at `file`, from its start.
    init(_ file: Int32, format: OutputFormat, columns: [String], path: String) throws {
        var pending: [UInt8] = []
        /// Where `pending` starts in the file.
        var start = 0
        var block = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = block.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw CommandError(.usage, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            pending += block[..<count]
            // Whole records only: for CSV, a quoted field may hold line ends.
            var recordStart = 0
            var quotes = 0
            var index = 0
            while index < pending.count {
                let byte = pending[index]
                index += 1
                if byte == UInt8(ascii: "\""), format == .csv { quotes += 1 }
                guard byte == UInt8(ascii: "\n"), quotes % 2 == 0 else { continue }
                try take(
                    Array(pending[recordStart..<index]), at: start + recordStart, format: format, columns: columns,
                    path: path)
                recordStart = index
                quotes = 0
            }
            pending.removeFirst(recordStart)
            start += recordStart
        }
        // A last line without its line end was cut off mid-write.
        if pending.contains(where: { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }) { redone += 1 }
    }

    private mutating func take(_ bytes: [UInt8], at offset: Int, format: OutputFormat, columns: [String], path: String)
        throws
    {
        let text = String(decoding: bytes.dropLast(), as: UTF8.self)
        guard !text.isEmpty else { return }
        switch format {
        case .jsonl:
            guard case .object(let members)? = try? JSONParser.parse(Data(text.utf8)),
                case .string(let ip)? = members["ip"]
            else {
                redone += 1
                return
            }
            keep(ip, failed: members["error"] != nil, offset: offset, length: bytes.count)
        case .csv:
            let fields = CSVRecord.fields(text)
            guard let (ipColumn, errorColumn) = csvColumns else {
                guard fields == columns, let ip = fields.firstIndex(of: "ip") else {
                    throw CommandError(
                        .usage,
                        "\(path) has the columns \(fields.joined(separator: ",")); this run writes "
                            + "\(columns.joined(separator: ",")): resume with the same --fields, or write elsewhere")
                }
                csvColumns = (ip, fields.firstIndex(of: "error"))
                header = Data(bytes)
                return
            }
            guard ipColumn < fields.count else {
                redone += 1
                return
            }
            let failed = errorColumn.map { $0 < fields.count && !fields[$0].isEmpty } ?? false
            keep(fields[ipColumn], failed: failed, offset: offset, length: bytes.count)
        case .json, .tsv, .table, .markdown:
            throw UsageError("--resume needs --format jsonl or csv")
        }
    }

    private mutating func keep(_ address: String, failed: Bool, offset: Int, length: Int) {
        guard !failed, let key = IPAddress(address)?.description else {
            redone += 1
            return
        }
        kept += 1
        guard places[key] == nil else { return }
        places[key] = KeptRecord(offset: offset, length: length)
        order.append(key)
    }
}

/// A writer whose records are preceded by the kept records due before them (see
/// `ResumedOutput`).
private final class InterleavingWriter: RecordWriter {
    private let writer: RecordWriter
    private let resumed: ResumedOutput

    init(writer: RecordWriter, resumed: ResumedOutput) {
        self.writer = writer
        self.resumed = resumed
    }

    func write(_ record: Record) throws {
        try resumed.writing { try writer.write(record) }
    }

    func write(json: Data, isCompact: Bool, orRecord record: () throws -> Record) throws {
        try resumed.writing { try writer.write(json: json, isCompact: isCompact, orRecord: record) }
    }

    var printsJSON: Bool { writer.printsJSON }

    func finish() throws {
        try resumed.writeRest()
        try writer.finish()
    }
}
