import IPData

/// One record of input on its way out: its bytes, what it is, and the addresses it holds.
struct EnrichLine: Sendable {
    enum Kind {
        /// A CSV or TSV header row.
        case header
        /// A row whose address is looked up, or a line that holds addresses.
        case data
        /// A record that goes out as it came (blank, a line without an address, a line that is
        /// not a JSON object).
        case asIs
    }

    /// Why a row that should get data holds no address to look up.
    enum Missing {
        /// The CSV cell is missing or empty, or the JSON line has no text under the key.
        case noAddress
        /// A JSON line that is not a JSON object.
        case notAnObject
    }

    /// What reading a record found.
    struct Reading {
        var kind: Kind
        /// The addresses, as written, in order.
        var addresses: [String] = []
        var missing: Missing?
    }

    let record: InputRecord
    let kind: Kind
    /// The addresses, as written, in order.
    let addresses: [String]
    /// Their keys in the answers (`AnswerTable`): the canonical address (for a host name, that
    /// of its first address), or the text as written for one that is none.
    private(set) var keys: [String]
    /// What is sent for each address: the address as written, or a host name's first address.
    private(set) var lookups: [String]
    /// The keys of the host names that do not resolve, with the resolver's message: nothing is
    /// sent for them.
    private(set) var unresolved: [String: String] = [:]
    let missing: Missing?
    /// Whether it is the first record of the input (which may start with a byte order mark).
    let isFirst: Bool
    /// What ends each line added under it in lines mode: its own line end, or for a last line
    /// without one, the line end of the line before it.
    let annotationLineEnd: LineEnd

    init(record: InputRecord, reading: Reading, isFirst: Bool, annotationLineEnd: LineEnd) {
        self.record = record
        self.kind = reading.kind
        self.addresses = reading.addresses
        self.keys = reading.addresses.map { IPAddress($0)?.description ?? $0 }
        self.lookups = reading.addresses
        self.missing = reading.missing
        self.isFirst = isFirst
        self.annotationLineEnd = annotationLineEnd
    }
}

extension EnrichLine {
    /// The line with its host names (see `HostName`) resolved by `resolver`: each is looked up
    /// as its first address, in the resolver's order; one that does not resolve gets the
    /// resolver's message and sends nothing. The names of a line are resolved at once.
    func resolvingNames(with resolver: HostResolver) async -> EnrichLine {
        let names = addresses.filter(HostName.isHostName)
        guard !names.isEmpty else { return self }
        for name in names { resolver.prefetch(name) }
        var line = self
        for (index, address) in addresses.enumerated() where HostName.isHostName(address) {
            switch await resolver.resolve(address) {
            case .addresses(let found):
                line.lookups[index] = found[0]
                line.keys[index] = IPAddress(found[0])?.description ?? found[0]
            case .failed(let message):
                var name = address.lowercased()
                if name.hasSuffix(".") { name.removeLast() }
                line.keys[index] = "name:" + name
                line.unresolved[line.keys[index]] = message
            }
        }
        return line
    }
}

/// The lines read but not yet written, in order, and the answers they share: a line goes out
/// once the answers of all of its addresses are in (`AnswerTable`).
///
/// Lines wait while the lookup stream holds their addresses: at most 5 bulk requests' worth (the
/// 4 in flight and the one being filled), and the lines between them that send nothing. So that
/// a long stretch of lines that send nothing cannot fill memory, the queue is `isFull` at
/// `mostLines` lines or `mostBytes` bytes, and the input then ends the stream early (its last
/// request goes out with fewer addresses) so that every line can be written.
///
/// A line that sends nothing (none of its addresses, or only addresses already answered) may be
/// ready as it is queued: `writesReady` writes it then, under the queue's lock as every write of
/// the run is, so that it waits for no later answer (`tail -f access.log | ipdata enrich -`,
/// where addresses repeat).
struct EnrichQueue: Sendable {
    static let mostLines = 65_536
    static let mostBytes = 64 * 1_048_576
    /// The answers kept that no line waiting needs, for later repeats.
    static let keptAnswers = 10_000

    private var lines: [EnrichLine] = []
    private var head = 0
    private var bytes = 0
    private var table = AnswerTable<EnrichAnswer>(capacity: EnrichQueue.keptAnswers)

    /// Writes the lines ready when a line that sends nothing is queued; called with the queue's
    /// lock held.
    var writesReady: (@Sendable ([(EnrichLine, [EnrichAnswer])]) -> Void)?

    /// How many lines wait.
    var count: Int { lines.count - head }
    var isFull: Bool { count >= Self.mostLines || bytes >= Self.mostBytes }

    /// Queues `line`, and returns the addresses to send for it: those whose answer is neither
    /// held nor in flight. The others share the answer of the line that sent them.
    mutating func append(_ line: EnrichLine) -> [String] {
        var toSend: [String] = []
        for (lookup, key) in zip(line.lookups, line.keys) where table.claim(key) {
            if let message = line.unresolved[key] {
                table.answer(key, with: EnrichAnswer(values: [], error: nil, isAnswered: false, unresolved: message))
            } else {
                toSend.append(lookup)
            }
        }
        lines.append(line)
        bytes += line.record.bytes.count
        if toSend.isEmpty, let writesReady {
            let ready = takeReady()
            if !ready.isEmpty { writesReady(ready) }
        }
        return toSend
    }

    /// Keeps the answer of one address sent (`ip`, as it was sent), and returns the lines now
    /// ready, with their answers, in order.
    mutating func answer(_ ip: String, with answer: EnrichAnswer) -> [(EnrichLine, [EnrichAnswer])] {
        table.answer(IPAddress(ip)?.description ?? ip, with: answer)
        return takeReady()
    }

    /// The lines at the head of the queue whose answers are all in, with them, in order; their
    /// answers are released for the lines to come.
    mutating func takeReady() -> [(EnrichLine, [EnrichAnswer])] {
        var ready: [(EnrichLine, [EnrichAnswer])] = []
        while head < lines.count {
            let line = lines[head]
            let answers = line.keys.compactMap(table.answer(for:))
            guard answers.count == line.keys.count else { break }
            ready.append((line, answers))
            for key in line.keys { table.release(key) }
            bytes -= line.record.bytes.count
            head += 1
        }
        if head > 1024, head * 2 > lines.count {
            lines.removeFirst(head)
            head = 0
        }
        return ready
    }
}
