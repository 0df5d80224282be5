extension IPDataClient {
    /// Looks up any number of addresses, and streams one result per address in input order.
    ///
    /// Addresses are sent in bulk requests of up to 100, `options.concurrency` of them at a time;
    /// see `IPLookupStream`. An address the API rejects, or that is not an IP address, fails on
    /// its own (`IPLookupResult.result`); a failed request fails the addresses it carried, and the
    /// stream goes on. With a `cache`, cached addresses are answered without a request; with
    /// `options.sendsNonPublicAddresses` false, so are private and reserved addresses.
    ///
    /// ```swift
    /// for try await item in client.lookupStream(addresses) {
    ///     print(item.ip, item.response?.countryCode ?? item.error?.description ?? "")
    /// }
    /// ```
    public func lookupStream<Addresses: Sequence & Sendable>(
        _ ips: Addresses, fields: [String]? = nil, options: LookupStreamOptions = LookupStreamOptions()
    ) -> IPLookupStream where Addresses.Element == String {
        IPLookupStream(client: self, fields: fields, options: options, makeSource: { SequenceSource(ips) })
    }

    /// Looks up the addresses an async sequence produces (lines of a file, say), and streams one
    /// result per address in input order. The stream throws what the input sequence throws.
    public func lookupStream<Addresses: AsyncSequence & Sendable>(
        _ ips: Addresses, fields: [String]? = nil, options: LookupStreamOptions = LookupStreamOptions()
    ) -> IPLookupStream where Addresses.Element == String {
        IPLookupStream(client: self, fields: fields, options: options, makeSource: { AsyncSequenceSource(ips) })
    }

    /// Looks up any number of addresses and returns every result, in input order.
    ///
    /// The same as collecting `lookupStream(_:fields:options:)`: all results are kept, so memory
    /// grows with the input. For large inputs, iterate the stream instead.
    public func lookupAll<Addresses: Sequence & Sendable>(
        _ ips: Addresses, fields: [String]? = nil, options: LookupStreamOptions = LookupStreamOptions()
    ) async throws -> [IPLookupResult] where Addresses.Element == String {
        var results: [IPLookupResult] = []
        results.reserveCapacity(ips.underestimatedCount)
        for try await result in lookupStream(ips, fields: fields, options: options) {
            results.append(result)
        }
        return results
    }
}
