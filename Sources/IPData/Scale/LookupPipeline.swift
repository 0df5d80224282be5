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
final class LookupPipeline {
    /// One lookup of the window, in input order.
    private enum Unit {
        /// Sent: its results, or nil when its addresses must be looked up one by one instead.
        case running(Task<[IPLookupResult]?, Never>, addresses: [String])
        /// Waiting for room in the window: an address to look up on its own.
        case waiting(String)

        var isRunning: Bool {
            if case .running = self { return true }
            return false
        }
    }

    private let client: IPDataClient
    private let fields: [String]?
    private let concurrency: Int
    private let source: any AddressSource
    private let mode: BulkMode
    private var queue: [Unit] = []
    private var ready: [IPLookupResult] = []
    private var readyIndex = 0
    private var inputEnded = false
    /// What the input threw; thrown once every result read before it has been delivered.
    private var inputError: Error?

    init(client: IPDataClient, fields: [String]?, options: LookupStreamOptions, source: any AddressSource) {
        self.client = client
        self.fields = fields
        self.concurrency = max(1, options.concurrency)
        self.source = source
        self.mode = BulkMode(
            fallsBack: options.fallsBackToSingleLookups, keepsJSON: options.keepsJSON, onEvent: options.onEvent)
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
            guard !queue.isEmpty else {
                if let error = inputError {
                    inputError = nil
                    throw error
                }
                return nil
            }
            // `topUp` starts the oldest units first, so the oldest is running.
            guard case .running(let oldest, let addresses) = queue.removeFirst() else { continue }
            let pending = queue
            let results = await withTaskCancellationHandler {
                await oldest.value
            } onCancel: {
                oldest.cancel()
                for case .running(let task, _) in pending { task.cancel() }
            }
            // Results of requests cut short by the cancellation are not the API's answers: drop them.
            guard !Task.isCancelled else { return stop() }
            guard let results else {
                // The plan refused bulk requests: these addresses go one by one, in their place.
                queue.insert(contentsOf: addresses.map(Unit.waiting), at: 0)
                continue
            }
            (ready, readyIndex) = (results, 0)
        }
    }

    private func cancelAll() {
        for case .running(let task, _) in queue { task.cancel() }
    }

    private func stop() -> IPLookupResult? {
        cancelAll()
        queue = []
        ready = []
        readyIndex = 0
        inputEnded = true
        return nil
    }

    /// Starts lookups until the window is full: first the waiting addresses, oldest first, then
    /// new ones from the input until it ends. When the input throws, the addresses read before
    /// are still looked up and the error is kept for later.
    private func topUp() async {
        var running = queue.filter(\.isRunning).count
        for index in queue.indices where running < concurrency {
            guard case .waiting(let address) = queue[index] else { continue }
            queue[index] = start([address])
            running += 1
        }
        while !inputEnded, running < concurrency, !queue.contains(where: { !$0.isRunning }) {
            let size = mode.usesSingleLookups ? 1 : APIMessage.bulkLimit
            var chunk: [String] = []
            chunk.reserveCapacity(size)
            do {
                while chunk.count < size, let address = try await source.next() {
                    chunk.append(address)
                }
            } catch {
                inputError = error
            }
            if chunk.count < size { inputEnded = true }
            guard !chunk.isEmpty else { return }
            queue.append(start(chunk))
            running += 1
        }
    }

    private func start(_ addresses: [String]) -> Unit {
        let (client, fields, mode) = (client, fields, mode)
        return .running(
            Task { await ChunkLookup.run(addresses, client: client, fields: fields, mode: mode) }, addresses: addresses)
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
            let answers = try await client.bulkLookupAnswers(chunk, fields: fields, keepsJSON: mode.keepsJSON) {
                count in mode.onEvent?(.requestSent(addresses: count))
            }
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
    private let singleLookups = Locked(false)

    init(fallsBack: Bool, keepsJSON: Bool = false, onEvent: (@Sendable (LookupStreamEvent) -> Void)?) {
        self.fallsBack = fallsBack
        self.keepsJSON = keepsJSON
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
