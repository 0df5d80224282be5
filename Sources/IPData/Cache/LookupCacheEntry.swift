import Foundation

/// One kept lookup: the answer, and the API's JSON it was decoded from when the client had it.
public struct LookupCacheEntry: Sendable {
    /// The answer.
    public var response: IPResponse
    /// The API's JSON for this address, as it arrived; nil when only the model is at hand.
    public var json: Data?

    /// An entry of `response`, decoded from `json`.
    public init(response: IPResponse, json: Data?) {
        self.response = response
        self.json = json
    }
}
