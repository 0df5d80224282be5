import Foundation

/// The engine behind `IPLookupStream`: reads addresses, keeps a window of lookups in flight, and
/// hands their results out in input order.
///
/// A lookup is a chunk of up to 100 addresses (one bulk request) or, once the plan has refused
/// bulk requests, one address (one single lookup), so that in either mode `concurrency` requests
/// are in flight and a single lookup's result is handed out as soon as the ones before it are.
/// The chunks in flight when the plan refused bulk requests are looked up again address by
/// address, in their place in the order.
///
/// It is driven by the consumer: `next()` tops the window up before waiting for the oldest
/// lookup, so nothing is read or sent ahead of what the window allows.
///
/// An address the client's caches answer (`IPDataClient.cache`, the `cacheStore` behind it, read
/// once for each batch of addresses read) is not sent: its result rides with the chunk read
/// around it, in its place, so that the requests stay full. A chunk holds at most
/// `mostAddressesRead` addresses, sent or not, and a run of cached answers with no address to
/// send takes a place in the window of its own, so memory stays bounded.
///
/// Without `LookupStreamOptions.sendsNonPublicAddresses`, an address whose scope is not public
/// rides along the same way, answered with the API's refusal.
///
/// With `LookupStreamOptions.flushInterval`, a task of its own reads the input into an
/// `AddressBuffer`, and the pipeline takes from it with deadlines: the first address of a chunk
/// is awaited only while there is nothing to hand out, until a lookup finishes; the chunk it
/// starts (`Forming`) is sent when full or at its deadline, and keeps filling across calls of
/// `next()`, which hands out what is answered meanwhile.
final class LookupPipeline {
    /// One lookup of the window, in input order.
    private enum Unit {
        /// Sent: its results, or nil when its addresses must be looked up one by one instead;
        /// `kept` are the results answered without a request, at their places among them.
        case running(Task<[IPLookupResult]?, Never>, addresses: [String], kept: [KeptResult], done: Locked<Bool>)
        /// Waiting for room in the window: an address to look up on its own.
        case waiting(String)
        /// Results at hand, in order: kept answers with no request around them.
        case answered([IPLookupResult])

        var isRunning: Bool {
            if case .running = self { return true }
            return false
        }

        var isWaiting: Bool {
            if case .waiting = self { return true }
            return false
        }
    }

    /// The chunk being filled from the buffer, and when it must be sent.
    private struct Forming {
        /// The addresses to send.
        var addresses: [String] = []
        var kept: [KeptResult] = []
        var read = 0
        let deadline: DispatchTime
    }

    /// A result answered without a request, and its place among the results of its unit.
    private struct KeptResult {
        let position: Int
        let result: IPLookupResult
    }

    /// The most addresses one chunk reads, those answered without a request included.
    static let mostAddressesRead = 10 * APIMessage.bulkLimit

    private let client: IPDataClient
    private let fields: [String]?
    private let concurrency: Int
    private let makeSource: @Sendable () -> any AddressSource
    /// The input, read by `next()` itself (no flush interval).
    private var source: (any AddressSource)?
    /// How long a chunk may wait to fill, in nanoseconds; nil: until it is full.
    private let flushInterval: UInt64?
    /// The input read ahead by `reader` (with a flush interval).
    private var buffer: AddressBuffer?
    private var reader: Task<Void, Never>?
    private var forming: Forming?
    private let mode: BulkMode
    private let sendsNonPublicAddresses: Bool
    private var queue: [Unit] = []
    private var ready: [IPLookupResult] = []
    private var readyIndex = 0
    private var inputEnded = false
    /// What the input threw; thrown once every result read before it has been delivered.
    private var inputError: Error?

    init(
        client: IPDataClient, fields: [String]?, options: LookupStreamOptions,
        makeSource: @escaping @Sendable () -> any AddressSource
    ) {
        self.client = client
        self.fields = fields
        self.concurrency = max(1, options.concurrency)
        self.makeSource = makeSource
        self.flushInterval = options.flushInterval.map { $0 > 0 ? UInt64(min($0, 1e9) * 1e9) : 0 }
        self.sendsNonPublicAddresses = options.sendsNonPublicAddresses
        self.mode = BulkMode(
            fallsBack: options.fallsBackToSingleLookups, keepsJSON: options.keepsJSON,
            usesSingleLookups: options.startsWithSingleLookups, onEvent: options.onEvent)
    }

    deinit {
        // The consumer stopped early: nobody will read these answers.
        cancelAll()
    }

    /// The next result; nil at the end of the input, or once the consuming task is cancelled
    /// (like `AsyncStream`), which also cancels the requests in flight and reads no more input.
    ///
    /// Answers already in hand are handed out first; the window is topped up only when they run
    /// out, just before waiting for the oldest lookup.
    func next() async throws -> IPLookupResult? {
        while true {
            guard !Task.isCancelled else { return stop() }
            if readyIndex < ready.count {
                defer { readyIndex += 1 }
                return ready[readyIndex]
            }
            await topUp()
            // With a flush interval, `topUp` waits for input, a deadline or a lookup that
            // finishes; the oldest lookup is awaited only when nothing else can happen meanwhile:
            // no chunk filling, and the window full or the input ended.
            if buffer != nil, canTopUp, !isOldestDone { continue }
            guard !queue.isEmpty else {
                if let error = inputError {
                    inputError = nil
                    throw error
                }
                return nil
            }
            let oldest: Task<[IPLookupResult]?, Never>
            let addresses: [String]
            let kept: [KeptResult]
            // `topUp` starts the oldest units first, so the oldest is running or answered.
            switch queue.removeFirst() {
            case .answered(let results):
                (ready, readyIndex) = (results, 0)
                continue
            case .waiting(let address):
                queue.insert(start([address], kept: []), at: 0)
                continue
            case .running(let task, let sent, let answered, _):
                (oldest, addresses, kept) = (task, sent, answered)
            }
            let pending = queue
            let results = await withTaskCancellationHandler {
                await oldest.value
            } onCancel: {
                oldest.cancel()
                for case .running(let task, _, _, _) in pending { task.cancel() }
            }
            // Results of requests cut short by the cancellation are not the API's answers: drop them.
            guard !Task.isCancelled else { return stop() }
            guard let results else {
                // The plan refused bulk requests: these addresses go one by one, in their place,
                // and the kept answers among them stay in theirs.
                let units = Self.merged(addresses.map(Unit.waiting), kept.map { ($0.position, .answered([$0.result])) })
                queue.insert(contentsOf: units, at: 0)
                continue
            }
            (ready, readyIndex) = (Self.merged(results, kept.map { ($0.position, $0.result) }), 0)
        }
    }

    /// `sent` with each element of `kept` inserted at its position.
    private static func merged<Element>(_ sent: [Element], _ kept: [(Int, Element)]) -> [Element] {
        guard !kept.isEmpty else { return sent }
        var all: [Element] = []
        all.reserveCapacity(sent.count + kept.count)
        var (nextSent, nextKept) = (0, 0)
        while nextSent < sent.count || nextKept < kept.count {
            if nextKept < kept.count, kept[nextKept].0 == all.count || nextSent == sent.count {
                all.append(kept[nextKept].1)
                nextKept += 1
            } else {
                all.append(sent[nextSent])
                nextSent += 1
            }
        }
        return all
    }

    /// Whether `topUp` would read: the input goes on, and the window has room for a new chunk.
    private var canTopUp: Bool {
        !inputEnded && !queue.contains(where: \.isWaiting) && queue.count < concurrency
    }

    /// Whether the oldest unit can be handed out without waiting.
    private var isOldestDone: Bool {
        switch queue.first {
        case .answered?: return true
        case .running(_, _, _, let done)?: return done.withLock { $0 }
        case .waiting?, nil: return false
        }
    }

    private func cancelAll() {
        for case .running(let task, _, _, _) in queue { task.cancel() }
        reader?.cancel()
        buffer?.close()
    }

    private func stop() -> IPLookupResult? {
        cancelAll()
        queue = []
        ready = []
        readyIndex = 0
        inputEnded = true
        forming = nil
        return nil
    }

    /// Starts lookups until the window is full: first the waiting addresses, oldest first, then
    /// new ones from the input until it ends. When the input throws, the addresses read before
    /// are still looked up and the error is kept for later. A run of kept answers with no address
    /// to send around it takes a place in the window, as a lookup does.
    private func topUp() async {
        var running = queue.filter(\.isRunning).count
        for index in queue.indices where running < concurrency {
            guard case .waiting(let address) = queue[index] else { continue }
            queue[index] = start([address], kept: [])
            running += 1
        }
        running += queue.filter { if case .answered = $0 { return true } else { return false } }.count
        if let flushInterval {
            return await topUp(running: running, flushInterval: flushInterval)
        }
        let source = self.source ?? makeSource()
        self.source = source
        while !inputEnded, running < concurrency, !queue.contains(where: \.isWaiting) {
            let size = mode.usesSingleLookups ? 1 : APIMessage.bulkLimit
            var chunk: [String] = []
            var kept: [KeptResult] = []
            chunk.reserveCapacity(size)
            var read = 0
            while chunk.count < size, read < Self.mostAddressesRead, !inputEnded {
                // A batch of addresses to ask the caches about in one read: as many as the chunk
                // still has room for, the non-public ones answered as they are read.
                var batch: [(position: Int, address: String)] = []
                do {
                    while chunk.count + batch.count < size, read < Self.mostAddressesRead {
                        guard let address = try await source.next() else {
                            inputEnded = true
                            break
                        }
                        if let result = refusal(of: address) {
                            kept.append(KeptResult(position: read, result: result))
                        } else {
                            batch.append((read, address))
                        }
                        read += 1
                    }
                } catch {
                    inputError = error
                    inputEnded = true
                }
                await sort(batch, into: &chunk, kept: &kept)
            }
            kept.sort { $0.position < $1.position }
            if chunk.isEmpty {
                guard !kept.isEmpty else { return }
                queue.append(.answered(kept.map(\.result)))
            } else {
                queue.append(start(chunk, kept: kept))
            }
            running += 1
        }
    }

    /// `topUp()` with a flush interval: the chunk being filled takes the addresses the buffer
    /// holds, and waits for more until its deadline, but returns as soon as the oldest lookup is
    /// done, so that `next()` hands it out; the chunk goes on filling at the next call. A new
    /// chunk's first address is awaited without deadline while nothing else can be handed out.
    private func topUp(running: Int, flushInterval: UInt64) async {
        var running = running
        let buffer = startReading()
        let size = mode.usesSingleLookups ? 1 : APIMessage.bulkLimit
        while !inputEnded, running < concurrency, !queue.contains(where: \.isWaiting) {
            let deliverable = isOldestDone
            let deadline: DispatchTime? = deliverable ? .now() : forming?.deadline
            let taken = await buffer.take(until: deadline, wakes: forming != nil || !queue.isEmpty)
            guard case .address(let first) = taken else {
                if case .ended(let error) = taken {
                    (inputError, inputEnded) = (error, true)
                } else if let forming, DispatchTime.now() >= forming.deadline {
                    // Its time is up (with a flush interval of 0, there is nothing more to read now).
                } else {
                    return
                }
                if send() { running += 1 }
                continue
            }
            var chunk = forming ?? Forming(deadline: .now() + .nanoseconds(Int(clamping: flushInterval)))
            // The addresses that have come, as one batch for the caches.
            var batch: [(position: Int, address: String)] = []
            var next: String? = first
            while let address = next {
                if let result = refusal(of: address) {
                    chunk.kept.append(KeptResult(position: chunk.read, result: result))
                } else {
                    batch.append((chunk.read, address))
                }
                chunk.read += 1
                next = nil
                guard chunk.addresses.count + batch.count < size, chunk.read < Self.mostAddressesRead else { break }
                switch await buffer.take(until: .now(), wakes: false) {
                case .address(let address): next = address
                case .ended(let error): (inputError, inputEnded) = (error, true)
                case .timedOut, .woken: break
                }
            }
            await sort(batch, into: &chunk.addresses, kept: &chunk.kept)
            forming = chunk
            // Full, at the end of the input, or answered without a request (nothing to wait for).
            let isFull = chunk.addresses.count >= size || chunk.read >= Self.mostAddressesRead
            if isFull || inputEnded || chunk.addresses.isEmpty, send() { running += 1 }
        }
    }

    /// Puts the chunk being filled in the window: sent, or answered when it holds only kept
    /// answers. False when there was none.
    private func send() -> Bool {
        guard var chunk = forming else { return false }
        forming = nil
        chunk.kept.sort { $0.position < $1.position }
        if chunk.addresses.isEmpty {
            guard !chunk.kept.isEmpty else { return false }
            queue.append(.answered(chunk.kept.map(\.result)))
        } else {
            queue.append(start(chunk.addresses, kept: chunk.kept))
        }
        return true
    }

    /// The buffer the reader task fills, started at the first call.
    private func startReading() -> AddressBuffer {
        if let buffer { return buffer }
        let buffer = AddressBuffer(capacity: APIMessage.bulkLimit)
        let makeSource = makeSource
        self.buffer = buffer
        reader = Task {
            let source = makeSource()
            do {
                while let address = try await source.next() {
                    guard await buffer.put(address) else { return }
                }
                buffer.finish(throwing: nil)
            } catch {
                buffer.finish(throwing: error)
            }
        }
        return buffer
    }

    /// The API's refusal of `address` when it is not public and the stream does not send those;
    /// nil otherwise.
    private func refusal(of address: String) -> IPLookupResult? {
        guard !sendsNonPublicAddresses, let parsed = IPAddress(address) else { return nil }
        switch parsed.scope {
        case .public: return nil
        case .private:
            return IPLookupResult(ip: address, result: .failure(.badRequest(APIMessage.privateAddress(address))))
        case .reserved:
            return IPLookupResult(ip: address, result: .failure(.badRequest(APIMessage.reservedAddress(address))))
        }
    }

    /// Puts each address of `batch` in `kept` when the client's caches answer it (one read for
    /// the batch), else in `chunk`, to be sent. Without caches, every address goes to `chunk`.
    private func sort(
        _ batch: [(position: Int, address: String)], into chunk: inout [String], kept: inout [KeptResult]
    ) async {
        guard !batch.isEmpty else { return }
        guard client.cache != nil || client.sharedStore != nil else {
            chunk.append(contentsOf: batch.map(\.address))
            return
        }
        let answers = await client.cachedAnswers(batch.map(\.address), fields: fields, keepsJSON: mode.keepsJSON)
        for ((position, address), answer) in zip(batch, answers) {
            guard let answer, answer.response.message == nil else {
                chunk.append(address)
                continue
            }
            let json = mode.keepsJSON ? answer.json : nil
            kept.append(
                KeptResult(
                    position: position,
                    result: IPLookupResult(
                        ip: address, result: .success(answer.response), json: json, isFromCache: true)))
        }
    }

    private func start(_ addresses: [String], kept: [KeptResult]) -> Unit {
        let (client, fields, mode, buffer) = (client, fields, mode, buffer)
        let done = Locked(false)
        let task = Task {
            let results = await ChunkLookup.run(addresses, client: client, fields: fields, mode: mode)
            done.withLock { $0 = true }
            buffer?.wake()
            return results
        }
        return .running(task, addresses: addresses, kept: kept, done: done)
    }
}

/// The lookup of one unit of a stream.
enum ChunkLookup {
    /// One result per address of `chunk`, by one bulk request; or by a single lookup for a chunk
    /// of one address once the plan has refused bulk requests. Nil when a chunk of several
    /// addresses must be looked up one by one instead (the plan refused bulk requests).
    static func run(
        _ chunk: [String], client: IPDataClient, fields: [String]?, mode: BulkMode
    ) async -> [IPLookupResult]? {
        guard mode.usesSingleLookups else { return await bulk(chunk, client: client, fields: fields, mode: mode) }
        guard chunk.count == 1 else { return nil }
        return [await single(chunk[0], client: client, fields: fields, mode: mode)]
    }

    private static func bulk(
        _ chunk: [String], client: IPDataClient, fields: [String]?, mode: BulkMode
    ) async -> [IPLookupResult]? {
        do {
            // The stream read the caches before it made the chunk.
            let answers = try await client.bulkLookupAnswers(
                chunk, fields: fields, keepsJSON: mode.keepsJSON, readsCaches: false
            ) { count in mode.onEvent?(.requestSent(addresses: count)) }
            return zip(chunk, answers).map { address, answer in
                if let message = answer.response.message {
                    return IPLookupResult(ip: address, result: .failure(.badRequest(message)))
                }
                return IPLookupResult(ip: address, result: .success(answer.response), json: answer.json)
            }
        } catch let error as IPDataError {
            guard mode.fallsBack, APIMessage.isBulkNotInPlan(error) else {
                return chunk.map { IPLookupResult(ip: $0, result: .failure(error), isRequestFailure: true) }
            }
            mode.switchToSingleLookups()
            return chunk.count == 1 ? [await single(chunk[0], client: client, fields: fields, mode: mode)] : nil
        } catch {
            return chunk.map {
                IPLookupResult(ip: $0, result: .failure(.networkError(error)), isRequestFailure: true)
            }
        }
    }

    private static func single(
        _ address: String, client: IPDataClient, fields: [String]?, mode: BulkMode
    ) async -> IPLookupResult {
        do {
            let answer = try await client.lookupAnswer(address, fields: fields) {
                mode.onEvent?(.requestSent(addresses: 1))
            }
            return IPLookupResult(
                ip: address, result: .success(answer.response), json: mode.keepsJSON ? answer.json : nil)
        } catch let error as IPDataError {
            // One address per request: only the API refusing the address is its own failure.
            let ownFailure: Bool
            if case .badRequest = error { ownFailure = true } else { ownFailure = false }
            return IPLookupResult(ip: address, result: .failure(error), isRequestFailure: !ownFailure)
        } catch {
            return IPLookupResult(ip: address, result: .failure(.networkError(error)), isRequestFailure: true)
        }
    }
}

/// Whether a stream still sends bulk requests, shared by its chunk lookups.
final class BulkMode: Sendable {
    let fallsBack: Bool
    /// Results carry the bytes of the API's answer (`LookupStreamOptions.keepsJSON`).
    let keepsJSON: Bool
    let onEvent: (@Sendable (LookupStreamEvent) -> Void)?
    private let singleLookups: Locked<Bool>

    init(
        fallsBack: Bool, keepsJSON: Bool = false, usesSingleLookups: Bool = false,
        onEvent: (@Sendable (LookupStreamEvent) -> Void)?
    ) {
        self.fallsBack = fallsBack
        self.keepsJSON = keepsJSON
        self.singleLookups = Locked(usesSingleLookups)
        self.onEvent = onEvent
    }

    var usesSingleLookups: Bool { singleLookups.withLock { $0 } }

    /// Switches to single lookups; the first switch is reported.
    func switchToSingleLookups() {
        let switched = singleLookups.withLock { single -> Bool in
            defer { single = true }
            return !single
        }
        if switched { onEvent?(.switchedToSingleLookups) }
    }
}
