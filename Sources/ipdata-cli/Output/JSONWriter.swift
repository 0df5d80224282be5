import Foundation

/// Writes records as pretty JSON (one object, or an array of them) or as JSON lines.
///
/// A record the API sent is written as the API sent it (`write(json:orRecord:)`): its keys in
/// their order, its nulls, its numbers as written, fields the SDK does not model; JSON lines
/// only lose the whitespace between tokens. Other records (errors, answers from a cache) are
/// written with their keys sorted, so output is the same from run to run and platform to platform.
final class JSONWriter: RecordWriter {
    enum Style {
        /// Each record as a pretty-printed object: the output of a command with one result.
        case object
        /// A pretty-printed array, written element by element as records arrive.
        case array
        /// One compact object per line.
        case lines
    }

    private let style: Style
    private let sink: OutputSink
    private var count = 0

    init(style: Style, sink: OutputSink) {
        self.style = style
        self.sink = sink
    }

    func write(_ record: Record) throws {
        let value = JSONValue.object(record)
        switch style {
        case .object:
            try sink.write(value.jsonText(pretty: true) + "\n")
        case .array:
            let element = value.jsonText(pretty: true).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            // Should the run stop from now on, the closing bracket keeps the document whole
            // (the sink writes it only after something was written).
            if count == 0 { sink.setTrailer("\n]\n") }
            try sink.write((count == 0 ? "[\n" : ",\n") + element)
        case .lines:
            try sink.write(value.jsonText() + "\n")
        }
        count += 1
    }

    var printsJSON: Bool { true }

    func write(json: Data, orRecord record: () throws -> Record) throws {
        switch style {
        case .object:
            try sink.write(json)
            if json.last != 0x0A { try sink.write("\n") }
        case .array:
            if count == 0 { sink.setTrailer("\n]\n") }
            try sink.write(count == 0 ? "[\n" : ",\n")
            try sink.write(json)
        case .lines:
            var line = RawJSON.compacted(json)
            line.append(0x0A)
            try sink.write(line)
        }
        count += 1
    }

    func finish() throws {
        guard style == .array else { return }
        sink.setTrailer(nil)
        try sink.write(count == 0 ? "[]\n" : "\n]\n")
    }
}
