import IPData

/// The input of `ipdata enrich`, read once, record by record, into lines; the lookup streams of
/// a run read it one after the other.
///
/// `@unchecked Sendable`: its state is used by one task at a time, the iterator of the one lookup
/// stream that is running (a run starts the next stream only after the last one ended).
final class EnrichSource: @unchecked Sendable {
    let path: String
    let enricher: Enricher
    private var reader: RecordReader?
    private var isFirst = true
    /// The line end of the latest line that had one.
    private var lastLineEnd = LineEnd.lineFeed
    /// Whether the input has been read to its end.
    private(set) var isAtEnd = false

    /// The input at `path` (`-` is standard input), as `enricher` reads it.
    init(path: String, enricher: Enricher) {
        self.path = path
        self.enricher = enricher
    }

    /// The next record as a line, or nil at the end of the input. Throws a usage error (exit
    /// status 2) for a record too long, an unbalanced quote, a header without the column asked
    /// for, or input that cannot be read.
    func nextLine() async throws -> EnrichLine? {
        guard !isAtEnd else { return nil }
        let reader = try self.reader ?? makeReader()
        self.reader = reader
        guard let record = try await reader.next() else {
            isAtEnd = true
            return nil
        }
        let reading = try enricher.read(record, isFirst: isFirst)
        if record.lineEnd != .none { lastLineEnd = record.lineEnd }
        defer { isFirst = false }
        return EnrichLine(record: record, reading: reading, isFirst: isFirst, annotationLineEnd: lastLineEnd)
    }

    private func makeReader() throws -> RecordReader {
        let maximum = RecordReader.defaultMaximumLength
        let lines =
            path == "-"
            ? LineReader.standardInput(maximumLineLength: maximum, expected: "text")
            : try LineReader.file(atPath: path, maximumLineLength: maximum, expected: "text")
        return RecordReader(lines: lines, separator: enricher.separator, maximumLength: maximum)
    }
}

/// The addresses of the input's lines, in order, for one lookup stream; each line is queued as
/// it is read, and only the addresses the queue says to send are handed on.
///
/// It ends when the input does, or early when the queue is full (`EnrichQueue.isFull`): the run
/// then writes what the stream answered and starts another stream for the rest of the input.
struct EnrichInput: AsyncSequence, Sendable {
    typealias Element = String

    let source: EnrichSource
    /// Where each line waits for its answers; nil for `--dry-run`, which keeps no line and hands
    /// on every address, repeats included.
    let queue: Locked<EnrichQueue>?
    /// Resolves the host names of the lines before they are queued, each once a run (one
    /// resolver for all the streams of a run); nil leaves names as they are.
    var resolver: HostResolver?

    func makeAsyncIterator() -> Iterator { Iterator(input: self) }

    private func resolved(_ line: EnrichLine) async -> EnrichLine {
        guard let resolver else { return line }
        return await line.resolvingNames(with: resolver)
    }

    struct Iterator: AsyncIteratorProtocol {
        let input: EnrichInput
        private var pending: [String] = []

        init(input: EnrichInput) { self.input = input }

        mutating func next() async throws -> String? {
            while pending.isEmpty {
                guard let queue = input.queue else {
                    guard let line = try await input.source.nextLine() else { return nil }
                    let resolved = await input.resolved(line)
                    pending = zip(resolved.lookups, resolved.keys).filter { resolved.unresolved[$0.1] == nil }.map(\.0)
                    continue
                }
                if queue.withLock({ $0.isFull }) { return nil }
                guard let line = try await input.source.nextLine() else { return nil }
                let resolved = await input.resolved(line)
                pending = queue.withLock { $0.append(resolved) }
            }
            return pending.removeFirst()
        }
    }
}
