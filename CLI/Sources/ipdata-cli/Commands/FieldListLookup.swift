import DiskCache
import Foundation
import IPData

/// `ipdata --field NAME` of several addresses (arguments or standard input): one line per
/// address, in input order, `ADDRESS<TAB>VALUE`, or `ADDRESS<TAB><TAB>ERROR` for a failed one.
///
/// Each distinct address is looked up once per run, as `ipdata bulk` does: in bulk requests of
/// up to 100 addresses asking only for the field's top-level name (`fields=asn` for `asn.name`),
/// the answers kept in the disk cache and read from it, private and reserved addresses answered
/// locally with the API's refusal; a repeat is written from the first answer. The value is the
/// one `GET /IP/FIELD` gives: a string as plain text, anything else as the API wrote its JSON.
///
/// Lines are written as soon as their answers and those before them are in, even while the
/// input waits for more (`tail -f log | ipdata --field country_code`): a batch goes out when it
/// is full, or when no address has come for `idleFlush`. At most `mostUnwritten` lines are read
/// and not yet written; the answers of the distinct addresses are kept for the run.
struct FieldListLookup {
    /// The field's path, such as `["asn", "name"]`.
    let steps: [String]
    let client: IPDataClient
    let cache: SQLiteLookupStore?
    let sink: OutputSink
    /// How each line is written (control characters, line breaks; see `FieldText`).
    let text: FieldText
    let console: Console

    /// Bulk requests in flight at once.
    static let requestsInFlight = 4
    /// The most lines read and not yet written.
    static let mostUnwritten = 1_000
    /// How long the input may be silent before the addresses read so far are sent, in nanoseconds.
    static let idleFlush: UInt64 = 20_000_000

    /// What happens during a run, in the order it happens.
    private enum Event: Sendable {
        /// The next address of the input.
        case address(String)
        /// The input ended.
        case inputEnded
        /// The input could not be read further (a file that went away, a line over 1 MiB).
        case inputFailed(any Error)
        /// The answers of one batch, by key.
        case answers([(key: String, answer: LookupCommand.FieldAnswer)])
        /// The idle timer started after the address of this serial went off.
        case idle(Int)
    }

    /// The key of an address in a run: its canonical form, else its text (never sent).
    private static func key(_ address: String) -> String {
        IPAddress(address)?.description ?? "\u{0}" + address
    }

    func run<Addresses: AsyncSequence & Sendable>(_ ips: Addresses) async throws -> ExitStatus
    where Addresses.Element == String {
        let (events, eventSink) = AsyncStream.makeStream(of: Event.self)
        // The reader takes a permit after each address before it reads the next: the first
        // address needs none, and each written line gives one back.
        let (permits, permitSink) = AsyncStream.makeStream(of: Void.self)
        for _ in 1..<Self.mostUnwritten { permitSink.yield() }
        // Not a child task: a run that stops must not wait for input that may never come.
        let reader = Task {
            var permitsLeft = permits.makeAsyncIterator()
            do {
                for try await ip in ips {
                    eventSink.yield(.address(ip))
                    guard await permitsLeft.next() != nil else { return }
                }
                eventSink.yield(.inputEnded)
            } catch {
                eventSink.yield(.inputFailed(error))
            }
        }
        defer {
            reader.cancel()
            permitSink.finish()
        }
        let singleLookups = Locked(false)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            var entries: [(ip: String, key: String)] = []
            var head = 0
            var answers: [String: LookupCommand.FieldAnswer] = [:]
            var requested: Set<String> = []
            var pending: [String] = []
            var (inFlight, arrivals, inputEnded, idle, timerRunning) = (0, 0, false, false, false)
            var inputError: (any Error)?
            var status = ExitStatus.success
            defer { group.cancelAll() }
            func startTimer() {
                guard !timerRunning else { return }
                timerRunning = true
                let serial = arrivals
                group.addTask {
                    try await Task.sleep(nanoseconds: Self.idleFlush)
                    eventSink.yield(.idle(serial))
                }
            }
            func dispatch() {
                while inFlight < Self.requestsInFlight, !pending.isEmpty,
                    pending.count >= APIMessage.bulkLimit || idle || inputEnded
                {
                    let batch = Array(pending.prefix(APIMessage.bulkLimit))
                    pending.removeFirst(batch.count)
                    inFlight += 1
                    let (steps, client) = (steps, client)
                    group.addTask {
                        let answers = await Self.lookUp(
                            batch, steps: steps, client: client, singleLookups: singleLookups)
                        eventSink.yield(.answers(answers))
                    }
                }
                if pending.isEmpty { idle = false }
            }
            for await event in events {
                switch event {
                case .address(let ip):
                    let key = Self.key(ip)
                    entries.append((ip, key))
                    arrivals += 1
                    if answers[key] == nil, requested.insert(key).inserted { pending.append(ip) }
                    if !pending.isEmpty { startTimer() }
                case .inputEnded:
                    inputEnded = true
                case .inputFailed(let error):
                    // The addresses read before it are still looked up and written.
                    (inputEnded, inputError) = (true, error)
                case .answers(let batch):
                    inFlight -= 1
                    for (key, answer) in batch { answers[key] = answer }
                case .idle(let serial):
                    timerRunning = false
                    if serial == arrivals {
                        idle = true
                    } else if !pending.isEmpty {
                        startTimer()
                    }
                }
                dispatch()
                // The answers that are next in input order, as far as they have arrived.
                while head < entries.count, let answer = answers[entries[head].key] {
                    let ip = entries[head].ip
                    head += 1
                    permitSink.yield()
                    switch answer {
                    case .value(let value):
                        try sink.write(text.line(address: ip, value: value))
                    case .failed(let message, let failure, let stopsTheRun):
                        status = status.combined(with: failure)
                        if stopsTheRun {
                            console.error(message)
                            return status
                        }
                        try sink.write(text.line(address: ip, error: console.oneLine(message)))
                    }
                }
                if head >= 1_024, head * 2 >= entries.count {
                    entries.removeFirst(head)
                    head = 0
                }
                if inputEnded, head == entries.count {
                    if let inputError { throw inputError }
                    break
                }
            }
            sink.markComplete()
            if let hits = cache?.hits, hits > 0 { console.note(CacheReport.notice(hits)) }
            return status
        }
    }

    /// The field of each address of `batch`, by one lookup stream: one bulk request (single
    /// lookups once the plan has refused bulk requests), no request for the addresses the cache
    /// holds or that are not public.
    private static func lookUp(
        _ batch: [String], steps: [String], client: IPDataClient, singleLookups: Locked<Bool>
    ) async -> [(key: String, answer: LookupCommand.FieldAnswer)] {
        var options = LookupStreamOptions(concurrency: LookupCommand.fieldConcurrency)
        options.keepsJSON = true
        options.sendsNonPublicAddresses = false
        options.startsWithSingleLookups = singleLookups.withLock { $0 }
        options.onEvent = { event in
            if case .switchedToSingleLookups = event { singleLookups.withLock { $0 = true } }
        }
        var results: [(key: String, answer: LookupCommand.FieldAnswer)] = []
        do {
            for try await result in client.lookupStream(batch, fields: [steps[0]], options: options) {
                results.append((Self.key(result.ip), answer(result, steps: steps)))
            }
        } catch {
            // A stream of an array throws nothing; this keeps every address answered regardless.
        }
        for ip in batch.dropFirst(results.count) {
            results.append((Self.key(ip), .failed("the lookup was cut short", .lookupFailed, stopsTheRun: false)))
        }
        return results
    }

    /// What `--field` prints for one result: the value `GET /IP/FIELD` gives, or the failure.
    private static func answer(_ result: IPLookupResult, steps: [String]) -> LookupCommand.FieldAnswer {
        let top = steps[0]
        let member: Data?
        switch result.result {
        case .failure(let error):
            return .failed(error.commandLineMessage, error.exitStatus, stopsTheRun: error.stopsTheRun)
        case .success(let response):
            if let json = result.json {
                member = Self.member(top, of: json)
            } else {
                member = (try? Record(encoding: response, selection: nil))?[top].map { Data($0.jsonText().utf8) }
            }
        }
        guard let member else {
            // The API answers a field it has for no value of this address with `null`, and one it
            // does not know with a 400.
            guard IPResponse.fieldNames.contains(top) else {
                let error = IPDataError.badRequest(APIMessage.invalidField(top))
                return .failed(error.commandLineMessage, error.exitStatus, stopsTheRun: false)
            }
            return steps.count == 1
                ? .value("null")
                : .failed("the answer has no field \(steps.joined(separator: "."))", .lookupFailed, stopsTheRun: false)
        }
        let value: JSONValue?
        do {
            value = try JSONParser.parse(member)
        } catch let error as JSONParser.Malformed where error.isTooDeep {
            return .failed(
                "the answer for \(top) is \(error), which the API never sends (\(IPDataError.checkTheServer))",
                .lookupFailed, stopsTheRun: false)
        } catch {
            value = nil
        }
        guard steps.count > 1 else {
            // A string as plain text; anything else as the bytes the API wrote.
            if case .string(let text)? = value { return .value(text) }
            return .value(String(decoding: member, as: UTF8.self))
        }
        guard let found = value?.value(at: Array(steps.dropFirst())) else {
            return .failed("the answer has no field \(steps.joined(separator: "."))", .lookupFailed, stopsTheRun: false)
        }
        return .value(found.fieldText)
    }

    /// The bytes of the value of the top-level member `key` of the JSON object `json`, as they
    /// are; nil when it has no such member or is not an object.
    static func member(_ key: String, of json: Data) -> Data? {
        let bytes = [UInt8](json)
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        /// Moves past the string that starts at `index`; false when it does not end.
        func skipString() -> Bool {
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return true
                default: index += 1
                }
            }
            return false
        }
        /// Moves past the value that starts at `index`; false when it does not end.
        func skipValue() -> Bool {
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""): return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return true
                        }
                    default: break
                    }
                    index += 1
                }
                return false
            default:
                let ends: Set<UInt8> = [
                    UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D,
                ]
                while index < bytes.count, !ends.contains(bytes[index]) { index += 1 }
                return true
            }
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let keyStart = index
            guard skipString() else { return nil }
            let name = try? JSONParser.parse(Data(bytes[keyStart..<index]))
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace()
            let valueStart = index
            guard skipValue() else { return nil }
            if case .string(key)? = name { return Data(bytes[valueStart..<index]) }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }
}
