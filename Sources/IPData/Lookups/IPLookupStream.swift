/// The results of looking up any number of addresses, one per address, in input order.
///
/// Made by `IPDataClient.lookupStream(_:fields:options:)`. Work starts when you iterate: the
/// stream reads addresses in chunks of up to 100 (one `POST /bulk` each) and keeps up to
/// `options.concurrency` chunks in flight, reading more input only as results are consumed, so
/// memory stays bounded by that window whatever the size of the input. Once the plan has refused
/// bulk requests, each address is a single lookup of its own, `options.concurrency` of them in
/// flight, and each result is handed out as soon as the ones before it are. Stopping the iteration
/// cancels the requests still in flight; cancelling its task does too, and ends the iteration
/// (`next()` returns nil, as `AsyncStream` does).
public struct IPLookupStream: AsyncSequence, Sendable {
    /// Each element is one address's outcome.
    public typealias Element = IPLookupResult

    let client: IPDataClient
    let fields: [String]?
    let options: LookupStreamOptions
    let makeSource: @Sendable () -> any AddressSource

    /// Starts reading the input.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            pipeline: LookupPipeline(client: client, fields: fields, options: options, makeSource: makeSource))
    }

    /// Delivers the results in input order as their requests complete.
    public struct Iterator: AsyncIteratorProtocol {
        let pipeline: LookupPipeline

        /// The next address's outcome, or nil after the last one or once the task is cancelled.
        /// Throws only what the input sequence throws.
        public mutating func next() async throws -> IPLookupResult? {
            try await pipeline.next()
        }
    }
}
