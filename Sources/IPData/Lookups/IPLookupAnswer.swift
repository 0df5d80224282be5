import Foundation

/// An answer to one lookup and the bytes of JSON it was decoded from, from
/// `IPDataClient.lookupAnswer(_:fields:)`: for a tool that prints what the API sent, every field
/// in its order and form, rather than what the model reads.
public struct IPLookupAnswer: Sendable {
    /// The answer, decoded as `lookup(_:fields:)` returns it.
    public let response: IPResponse
    /// The body of the API's answer, as it came; nil when the answer came from the client's
    /// in-memory `cache`, which keeps models only. A `cacheStore` hands back the bytes it kept.
    public let json: Data?
}
