import Foundation

/// The engine behind `IPLookupStream`: reads chunks of addresses, keeps a window of chunk
/// lookups in flight, and hands their results out in input order.
///
/// It is driven by the consumer: `next()` tops the window up before waiting for the oldest chunk,
/// so nothing is read or sent ahead of what the window allows.
final class LookupPipeline {
    private let client: IPDataClient
    private let fields: [String]?
    private let concurrency: Int
    private let source: any AddressSource
    private let mode: BulkMode
    private var inFlight: [Task<[IPLookupResult], Never>] = []
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
        self.mode = BulkMode(fallsBack: options.fallsBackToSingleLookups, onEvent: options.onEvent)
    }

    deinit {
        // The consumer stopped early: nobody will read these answers.
        for task in inFlight { task.cancel() }
    }

    /// The next result; nil at the end of the input, or once the consuming task is cancelled
    /// (like `AsyncStream`), which also cancels the requests in flight and reads no more input.
    ///
    /// Answers already in hand are handed out first; the window is topped up only when they run
    /// out, just before waiting for the oldest chunk.
    func next() async throws -> IPLookupResult? {
        guard !Task.isCancelled else { return stop() }
        if readyIndex < ready.count {
            defer { readyIndex += 1 }
            return ready[readyIndex]
        }
        await topUp()
        guard !inFlight.isEmpty else {
            if let error = inputError {
                inputError = nil
                throw error
            }
            return nil
        }
        let oldest = inFlight.removeFirst()
        let pending = inFlight
        ready = await withTaskCancellationHandler {
            await oldest.value
        } onCancel: {
            oldest.cancel()
            for task in pending { task.cancel() }
        }
        // Results of requests cut short by the cancellation are not the API's answers: drop them.
        guard !Task.isCancelled else { return stop() }
        readyIndex = 0
        // A chunk has one result per address, so this returns its first result.
        return try await next()
    }

    private func stop() -> IPLookupResult? {
        for task in inFlight { task.cancel() }
        inFlight = []
        ready = []
        readyIndex = 0
        inputEnded = true
        return nil
    }

    /// Starts chunk lookups until the window is full or the input has ended. When the input
    /// throws, the addresses read before are still looked up and the error is kept for later.
    private func topUp() async {
        while !inputEnded, inFlight.count < concurrency {
            var chunk: [String] = []
            chunk.reserveCapacity(APIMessage.bulkLimit)
            do {
                while chunk.count < APIMessage.bulkLimit, let address = try await source.next() {
                    chunk.append(address)
                }
            } catch {
                inputError = error
            }
            if chunk.count < APIMessage.bulkLimit { inputEnded = true }
            guard !chunk.isEmpty else { return }
            let (batch, client, fields, mode) = (chunk, client, fields, mode)
            inFlight.append(Task { await ChunkLookup.run(batch, client: client, fields: fields, mode: mode) })
        }
    }

}

/// The lookup of one chunk of a stream.
enum ChunkLookup {
    /// One result per address of `chunk`: by one bulk request, or by single lookups one after
    /// another once the plan has refused bulk requests (so a window of chunks keeps the same
    /// number of requests in flight).
    static func run(
        _ chunk: [String], client: IPDataClient, fields: [String]?, mode: BulkMode
    ) async -> [IPLookupResult] {
        if !mode.usesSingleLookups {
            do {
                let responses = try await client.bulkLookup(chunk, fields: fields) { count in
                    mode.onEvent?(.requestSent(addresses: count))
                }
                return zip(chunk, responses).map { address, response in
                    if let message = response.message {
                        return IPLookupResult(ip: address, result: .failure(.badRequest(message)))
                    }
                    return IPLookupResult(ip: address, result: .success(response))
                }
            } catch let error as IPDataError {
                guard mode.fallsBack, APIMessage.isBulkNotInPlan(error) else {
                    return chunk.map { IPLookupResult(ip: $0, result: .failure(error), isRequestFailure: true) }
                }
                mode.switchToSingleLookups()
            } catch {
                return chunk.map {
                    IPLookupResult(ip: $0, result: .failure(.networkError(error)), isRequestFailure: true)
                }
            }
        }
        var results: [IPLookupResult] = []
        results.reserveCapacity(chunk.count)
        for address in chunk {
            do {
                let response = try await client.lookup(address, fields: fields) {
                    mode.onEvent?(.requestSent(addresses: 1))
                }
                results.append(IPLookupResult(ip: address, result: .success(response)))
            } catch let error as IPDataError {
                // One address per request: only the API refusing the address is its own failure.
                let ownFailure: Bool
                if case .badRequest = error { ownFailure = true } else { ownFailure = false }
                results.append(IPLookupResult(ip: address, result: .failure(error), isRequestFailure: !ownFailure))
            } catch {
                results.append(
                    IPLookupResult(ip: address, result: .failure(.networkError(error)), isRequestFailure: true))
            }
        }
        return results
    }
}

/// Whether a stream still sends bulk requests, shared by its chunk lookups.
final class BulkMode: Sendable {
    let fallsBack: Bool
    let onEvent: (@Sendable (LookupStreamEvent) -> Void)?
    private let singleLookups = Locked(false)

    init(fallsBack: Bool, onEvent: (@Sendable (LookupStreamEvent) -> Void)?) {
        self.fallsBack = fallsBack
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
