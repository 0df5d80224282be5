import Foundation

/// One HTTP request a client sends, as an `IPDataObserver` is told of it. Each attempt of a call
/// is a request of its own.
public struct IPDataRequest: Sendable {
    /// The call the request belongs to.
    public let call: IPDataCall
    /// 1 for the call's first request, 2 for the next, and so on: every request the call sends
    /// counts, the bulk request sent again over a fresh connection too.
    public let attempt: Int
    /// `GET` or `POST`.
    public let method: String
    /// The request's URL, with `REDACTED` where the key was.
    public let url: URL
    /// The addresses the request carries: those of a bulk request that the cache did not answer,
    /// 1 for a lookup of one address or one field, 0 for the caller's own address and an ASN.
    public let addressCount: Int

    /// A request, as the client describes its own (for the tests of an observer); `url` must
    /// carry no key.
    public init(call: IPDataCall, attempt: Int, method: String, url: URL, addressCount: Int) {
        self.call = call
        self.attempt = attempt
        self.method = method
        self.url = url
        self.addressCount = addressCount
    }
}
