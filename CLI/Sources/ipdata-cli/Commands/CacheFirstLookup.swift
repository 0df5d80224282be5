import DiskCache
import Foundation
import IPData

/// The outcomes of `ipdata bulk`'s addresses in input order, answered from the disk cache first:
/// the addresses are read in batches, each batch is read from the cache in one call, and only the
/// misses go to the library's lookup stream (`client.lookupStream`), whose results take their
/// places among the cached answers. A cached answer is handed out as the store read it, without
/// a model, a request or a task.
///
/// The client must not read the cache again (`SQLiteLookupStore.writingOnly`); it fills it.
///
/// The lookup stream sends a bulk request once it has read 100 addresses to send (or the input
/// ended), and fills its window of `concurrency` requests before it waits for the oldest. So
/// before the outcome of a miss is awaited, enough misses are handed to the stream after it to
/// fill that window; reading ahead for them stops once `mostAnswersHeld` cached answers are held
/// (a batch more at most). When that many are held first, the stream is told that its input
/// ended, so that it sends what it has, and later misses go to a new stream. Memory stays bounded
/// as the stream's own. Once the run stops, no stream reads another miss (`Feed`).
///
/// Without `waitsForFullBatches`, for input that may pause (`tail -f`) and streams with a flush
/// interval (`LookupStreamOptions.flushInterval`), the input is read ahead by a task of its own
/// (`AddressPrefetch`): a batch is what has come, a cached answer is handed out without waiting
/// for more input, and reading ahead for a miss takes only what has come: when the input pauses,
/// the stream's input ends there, so that it sends its misses at once.
final class CacheFirstLookup {
    /// The most addresses one cache read asks for: a bulk request's worth.
    static let batchSize = 100
    /// The most addresses a lookup stream reads for one request, cached or not (as the library's
    /// stream does): what bounds the cached answers held ahead, per request in flight.
    static let mostAddressesPerRequest = 1_000

    /// One lookup stream of misses, and what it was given.
    private final class Segment {
        let feed: AsyncStream<[String]>.Continuation
        var results: IPLookupStream.Iterator
        /// Misses of the batch being read, given to the stream together at its end.
        var unsent: [String] = []
        /// Whether its input has ended: it sends what it holds.
        var isClosed = false
        /// Addresses it was given that it will send (public, or no address at all), whose
        /// outcomes are not taken yet.
        var sendsAhead = 0

        init(feed: AsyncStream<[String]>.Continuation, results: IPLookupStream.Iterator) {
            self.feed = feed
            self.results = results
        }

        /// Gives the stream the misses of the batch read.
        func send() {
            guard !unsent.isEmpty else { return }
            feed.yield(unsent)
            unsent = []
        }

        func close() {
            guard !isClosed else { return }
            send()
            isClosed = true
            feed.finish()
        }
    }

    /// One address's place in the order.
    private enum Place {
        case answered(StreamingLookup.Outcome)
        /// A miss given to `segment`; `sends` when the stream will send it (not a private or
        /// reserved address, which it answers itself).
        case given(Segment, sends: Bool)
    }

    /// What a stream reads: the misses given to it, a batch at a time, until its input ended or
    /// the run stopped.
    struct Feed: AsyncSequence, Sendable {
        typealias Element = String
        let misses: AsyncStream<[String]>
        let isStopped: @Sendable () -> Bool

        func makeAsyncIterator() -> Iterator {
            Iterator(misses: misses.makeAsyncIterator(), isStopped: isStopped)
        }

        struct Iterator: AsyncIteratorProtocol {
            var misses: AsyncStream<[String]>.Iterator
            let isStopped: @Sendable () -> Bool
            var batch: [String] = []
            var nextInBatch = 0

            /// The next miss; nil once the run stopped, so that what was given but not yet read
            /// is not sent, as an input that stopped is not read any further.
            mutating func next() async -> String? {
                while true {
                    guard !isStopped() else { return nil }
                    if nextInBatch < batch.count {
                        defer { nextInBatch += 1 }
                        return batch[nextInBatch]
                    }
                    guard let given = await misses.next() else { return nil }
                    (batch, nextInBatch) = (given, 0)
                }
            }
        }
    }

    private var addresses: AddressReader.Iterator
    /// The input read ahead, when batches do not wait to fill.
    private let prefetch: AddressPrefetch?
    private let store: SQLiteLookupStore
    private let fields: [String]?
    private let isStopped: @Sendable () -> Bool
    private let makeStream: (Feed) -> IPLookupStream
    /// The misses to give a stream after the oldest one awaited: enough for a full window.
    private let sendsAhead: Int
    /// The most cached answers held while reading ahead.
    private let mostAnswersHeld: Int
    private var places: [Place] = []
    private var head = 0
    private var answersHeld = 0
    private var current: Segment?
    private var inputEnded = false
    /// What the input threw; thrown once every outcome read before it has been handed out.
    private var inputError: Error?

    /// Outcomes of `addresses`, `store`'s answers of `fields` first, the misses looked up by the
    /// streams `makeStream` makes of them (with a window of `concurrency` requests). Once
    /// `isStopped` (the run's stop: see `InputLedger.stop()`), the streams read no more.
    init(
        _ addresses: AddressReader, store: SQLiteLookupStore, fields: [String]?, concurrency: Int,
        isStopped: @escaping @Sendable () -> Bool, waitsForFullBatches: Bool = true,
        makeStream: @escaping (Feed) -> IPLookupStream
    ) {
        self.addresses = addresses.makeAsyncIterator()
        self.prefetch = waitsForFullBatches ? nil : AddressPrefetch(addresses, capacity: Self.batchSize)
        self.store = store
        self.fields = fields
        self.isStopped = isStopped
        self.makeStream = makeStream
        self.sendsAhead = max(1, concurrency) * Self.batchSize
        self.mostAnswersHeld = max(1, concurrency) * Self.mostAddressesPerRequest
    }

    deinit {
        // Stopped early: the streams' input ends, and dropping them cancels their requests.
        current?.close()
        prefetch?.close()
    }

    /// The next outcome in input order; nil at the end of the input, or when a stream ended
    /// early (its task was cancelled). Throws what the input throws, once every address read
    /// before has its outcome.
    func next() async throws -> StreamingLookup.Outcome? {
        while true {
            // As the lookup stream does: a cancelled task reads and hands out no more.
            guard !Task.isCancelled else { return nil }
            if head < places.count {
                let place = places[head]
                switch place {
                case .answered(let outcome):
                    take()
                    answersHeld -= 1
                    return outcome
                case .given(let segment, let sends):
                    await readAhead(for: segment)
                    take()
                    if sends { segment.sendsAhead -= 1 }
                    // A stream that ends before this miss's outcome: the run stopped (or its task
                    // was cancelled), and this address, and those after it, were not attempted.
                    guard let result = try await segment.results.next() else { return nil }
                    return .streamed(result)
                }
            }
            guard !inputEnded else {
                current?.close()
                if let inputError {
                    self.inputError = nil
                    throw inputError
                }
                return nil
            }
            await readBatch()
        }
    }

    private func take() {
        head += 1
        if head >= 1_024, head * 2 >= places.count {
            places.removeFirst(head)
            head = 0
        }
    }

    /// Reads ahead until `segment` was given enough to send for a full window, or its input ended;
    /// closes it when it was not (the input ended, or too many answers are held).
    private func readAhead(for segment: Segment) async {
        var paused = false
        while !segment.isClosed, !inputEnded, segment.sendsAhead < sendsAhead, answersHeld < mostAnswersHeld {
            // Input that may pause: only what has come. When nothing has, the stream's input ends
            // so that it sends what it holds now (it would not see the end of the input, nor more
            // of it, while this waits for its answer); later misses go to a new stream.
            if await readBatch(waiting: prefetch == nil) == 0, prefetch != nil {
                paused = true
                break
            }
        }
        let isShort = prefetch == nil ? segment.sendsAhead < sendsAhead : paused || answersHeld >= mostAnswersHeld
        if inputEnded || isShort { segment.close() }
    }

    /// Reads up to `batchSize` addresses and the cache's answers for them, in one read; the
    /// misses go to the current stream (a new one when there is none). With `prefetch`, the
    /// batch is what has come, and the first address is waited for only when `waiting`. Returns
    /// how many addresses it read.
    @discardableResult
    private func readBatch(waiting: Bool = true) async -> Int {
        var batch: [String] = []
        batch.reserveCapacity(Self.batchSize)
        do {
            reading: while batch.count < Self.batchSize {
                if let prefetch {
                    // After a stop, what was read ahead is not handed out, as it was never read.
                    if isStopped() {
                        inputEnded = true
                        break
                    }
                    switch try await prefetch.take(waiting: waiting && batch.isEmpty) {
                    case .address(let address): batch.append(address)
                    case .nothingYet: break reading
                    case .ended:
                        inputEnded = true
                        break reading
                    }
                    continue
                }
                guard let address = try await addresses.next() else {
                    inputEnded = true
                    break
                }
                batch.append(address)
            }
        } catch {
            inputError = error
            inputEnded = true
        }
        let keys = batch.map { LookupCacheKey(address: $0, fields: fields) }
        let answers = store.answers(for: keys.compactMap { $0 })
        var nextAnswer = answers.startIndex
        for (address, key) in zip(batch, keys) {
            guard let key else {
                give(address, sends: true)
                continue
            }
            defer { nextAnswer += 1 }
            if let json = answers[nextAnswer] {
                places.append(.answered(.cached(ip: address, json: json)))
                answersHeld += 1
            } else {
                give(address, sends: IPAddress(key.address)?.scope == .public)
            }
        }
        current?.send()
        if inputEnded { current?.close() }
        return batch.count
    }

    private func give(_ address: String, sends: Bool) {
        if current?.isClosed != false {
            let (misses, continuation) = AsyncStream<[String]>.makeStream()
            let stream = makeStream(Feed(misses: misses, isStopped: isStopped))
            current = Segment(feed: continuation, results: stream.makeAsyncIterator())
        }
        guard let segment = current else { return }
        segment.unsent.append(address)
        if sends { segment.sendsAhead += 1 }
        places.append(.given(segment, sends: sends))
    }
}
