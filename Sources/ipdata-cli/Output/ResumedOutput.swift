import Foundation
import IPData

/// What `ipdata bulk --resume` keeps of an output that an earlier run left: every record that
/// has an answer, copied into the new output first, and the addresses they hold, which this run
/// does not look up again. A record with an `error` (a failed lookup, a network failure) is left
/// out and its address looked up again; so is a last line the earlier run cut off mid-write.
///
/// JSON lines and CSV (with the header row that `ipdata bulk` writes) can be resumed; a JSON
/// array cannot, since a cut-off array is no document to add to.
struct ResumedOutput {
    /// The addresses already answered, in canonical form.
    private(set) var done: Set<String> = []
    /// Records kept, and records left out to be done again.
    private(set) var kept = 0
    private(set) var redone = 0

    /// Copies the answered records of the file at `path`, in `format`, into `sink`; for CSV the
    /// file's header must be `columns`. A file that does not exist is an empty output.
    static func copy(from path: String, format: OutputFormat, columns: [String], into sink: OutputSink) async throws
        -> ResumedOutput
    {
        var resumed = ResumedOutput()
        guard FileManager.default.fileExists(atPath: path) else { return resumed }
        let reader = try LineReader.file(atPath: path, expected: "one record per line, as ipdata bulk writes")
        // Whole lines only: the last one counts only if the earlier run ended it.
        while let chunk = try await reader.nextLines() {
            let end = chunk.last == UInt8(ascii: "\n") ? chunk.endIndex : chunk.lastIndex(of: UInt8(ascii: "\n"))
            guard let end else {
                resumed.redone += 1  // one line, cut off mid-write
                continue
            }
            let text = String(decoding: chunk[..<end], as: UTF8.self)
            if end != chunk.endIndex { resumed.redone += 1 }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            try resumed.take(lines, format: format, columns: columns, into: sink, path: path)
        }
        return resumed
    }

    /// The index of the `ip` and `error` columns, once the CSV header is read.
    private var csvColumns: (ip: Int, error: Int?)?

    private mutating func take(
        _ lines: [String], format: OutputFormat, columns: [String], into sink: OutputSink, path: String
    ) throws {
        for line in lines {
            switch format {
            case .jsonl:
                guard case .object(let members)? = try? JSONParser.parse(Data(line.utf8)),
                    case .string(let ip)? = members["ip"]
                else {
                    redone += 1
                    continue
                }
                try keep(line, address: ip, failed: members["error"] != nil, into: sink)
            case .csv:
                let fields = CSVRecord.fields(line)
                guard let (ipColumn, errorColumn) = csvColumns else {
                    guard fields == columns, let ip = fields.firstIndex(of: "ip") else {
                        throw CommandError(
                            .usage,
                            "\(path) has the columns \(fields.joined(separator: ",")); this run writes "
                                + "\(columns.joined(separator: ",")): resume with the same --fields, or write elsewhere"
                        )
                    }
                    csvColumns = (ip, fields.firstIndex(of: "error"))
                    try sink.write(line + "\n")
                    continue
                }
                guard ipColumn < fields.count else {
                    redone += 1
                    continue
                }
                let failed = errorColumn.map { $0 < fields.count && !fields[$0].isEmpty } ?? false
                try keep(line, address: fields[ipColumn], failed: failed, into: sink)
            case .json, .table:
                throw UsageError("--resume needs --format jsonl or csv")
            }
        }
    }

    private mutating func keep(_ line: String, address: String, failed: Bool, into sink: OutputSink) throws {
        guard !failed, let key = IPAddress.canonical(address) else {
            redone += 1
            return
        }
        try sink.write(line + "\n")
        done.insert(key)
        kept += 1
    }

    /// Whether the CSV header was copied (the writer must not write it again).
    var copiedHeader: Bool { csvColumns != nil }
}
