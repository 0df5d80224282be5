import Foundation

/// The outcome for one address in a lookup of many: the answer, or why there is none.
public struct IPLookupResult: Sendable {
    /// The address as it was given.
    public let ip: String
    /// The answer, or the error for this address.
    ///
    /// A failure is either this address's own (`badRequest` for an invalid, private or reserved
    /// address, with the API's message) or the failure of the request that carried it
    /// (`unauthorized`, `forbidden` for an exhausted quota, `networkError`, …), which every
    /// address of that request shares. See `isRequestFailure`.
    public let result: Result<IPResponse, IPDataError>

    /// The answer, or nil when this address failed.
    public var response: IPResponse? {
        if case .success(let response) = result { return response }
        return nil
    }

    /// The error, or nil when this address was answered.
    public var error: IPDataError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// True when the request carrying this address failed as a whole (authentication, quota,
    /// network, an unreadable answer), rather than the API refusing this one address. Such
    /// failures usually affect every later address too: stop, or carry on, as you see fit.
    public let isRequestFailure: Bool

    /// The bytes of the API's answer for this address (its element of a bulk answer), when the
    /// stream was asked to keep them (`LookupStreamOptions.keepsJSON`); nil for a failure, and
    /// for an answer from the client's in-memory `cache`, which keeps models only.
    public let json: Data?

    /// True when the client's caches answered this address (its in-memory `cache`, or its
    /// `cacheStore`), so that no request carried it. Its `json`, when kept, is then the bytes
    /// the store handed back (`LookupCacheEntry.json`), in whatever form the store keeps them.
    public let isFromCache: Bool

    init(
        ip: String, result: Result<IPResponse, IPDataError>, isRequestFailure: Bool = false, json: Data? = nil,
        isFromCache: Bool = false
    ) {
        self.ip = ip
        self.result = result
        self.isRequestFailure = isRequestFailure
        self.json = json
        self.isFromCache = isFromCache
    }
}
