import Foundation

/// Writes records as pretty JSON (one object, or an array of them) or as JSON lines.
///
/// A record the API sent is written from the bytes the API sent (`write(json:orRecord:)`): its
/// keys in their order, its nulls, its numbers and strings as written, fields the SDK does not
/// model. Only the whitespace between tokens is the writer's: none in JSON lines, two spaces a
/// level in JSON (see `RawJSON`), whichever endpoint answered. Other records (errors, answers
/// from a cache) are written with their keys sorted, so output is the same from run to run and
/// platform to platform. To a terminal, the characters JSON may hold unescaped that a terminal
/// acts on (C1 controls, bidirectional overrides) are written as `\u` escapes: the same values
/// (see `TerminalText.escapedJSON`).
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
    private let forTerminal: Bool
    private var count = 0

    init(style: Style, sink: OutputSink, forTerminal: Bool = false) {
        self.style = style
        self.sink = sink
        self.forTerminal = forTerminal
    }

    /// Writes `json` to the sink, made safe for a terminal when it is one.
    private func emit(_ json: Data) throws {
        try sink.write(forTerminal ? TerminalText.escapedJSON(json) : json)
    }

    private func emit(_ text: String) throws {
        try emit(Data(text.utf8))
    }

    func write(_ record: Record) throws {
        let value = JSONValue.object(record)
        switch style {
        case .object:
            try emit(value.jsonText(pretty: true) + "\n")
        case .array:
            let element = value.jsonText(pretty: true).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            // Should the run stop from now on, the closing bracket keeps the document whole
            // (the sink writes it only after something was written).
            if count == 0 { sink.setTrailer("\n]\n") }
            try emit((count == 0 ? "[\n" : ",\n") + element)
        case .lines:
            try emit(value.jsonText() + "\n")
        }
        count += 1
    }

    var printsJSON: Bool { true }

    func write(json: Data, isCompact: Bool, orRecord record: () throws -> Record) throws {
        switch style {
        case .object:
            var document = RawJSON.prettyPrinted(json, isCompact: isCompact)
            document.append(0x0A)
            try emit(document)
        case .array:
            if count == 0 { sink.setTrailer("\n]\n") }
            var element = Data(((count == 0 ? "[\n" : ",\n") + "  ").utf8)
            element.append(RawJSON.prettyPrinted(json, indent: "  ", isCompact: isCompact))
            try emit(element)
        case .lines where forTerminal:
            var line = isCompact ? json : RawJSON.compacted(json)
            line.append(0x0A)
            try emit(line)
        case .lines:
            // Into the sink's buffer as they are, with the line end: no copy of the record.
            try sink.write(isCompact ? json : RawJSON.compacted(json), endingTheLine: true)
        }
        count += 1
    }

    func finish() throws {
        if style == .array {
            sink.setTrailer(nil)
            try sink.write(count == 0 ? "[]\n" : "\n]\n")
        }
        try sink.flush()
    }
}
