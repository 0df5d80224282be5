import Foundation

/// One kept lookup: the answer, and the API's JSON it was decoded from when the client had it.
///
/// A store that keeps the API's bytes may hand them back alone (`init(json:)`): the client then
/// decodes them with its own parser only when a caller wants the model, and hands them on as
/// they are to one that wants the bytes.
public struct LookupCacheEntry: Sendable {
    /// The answer. For an entry of `init(json:)`, decoded from `json` (by the client's own parser)
    /// each time it is read; bytes that are no JSON object read as an answer with only `message`
    /// set, which the client takes for a miss.
    public var response: IPResponse {
        get {
            switch content {
            case .model(let response): return response
            case .bytes(let json): return Self.decoded(json) ?? IPResponse(message: Self.unreadableMessage)
            }
        }
        set { content = .model(newValue) }
    }
    /// The API's JSON for this address, as it arrived; nil when only the model is at hand.
    public var json: Data?

    private enum Content: Sendable {
        case model(IPResponse)
        case bytes(Data)
    }
    private var content: Content

    /// An entry of `response`, decoded from `json`.
    public init(response: IPResponse, json: Data?) {
        self.content = .model(response)
        self.json = json
    }

    /// An entry of the API's JSON alone, not decoded until `response` is read.
    public init(json: Data) {
        self.content = .bytes(json)
        self.json = json
    }

    /// The model, decoded when the entry holds bytes alone; nil when they are no JSON object.
    var model: IPResponse? {
        switch content {
        case .model(let response): return response
        case .bytes(let json): return Self.decoded(json)
        }
    }

    /// Whether the entry holds the API's bytes alone, not yet decoded.
    var holdsBytesAlone: Bool {
        if case .bytes = content { return true }
        return false
    }

    private static func decoded(_ json: Data) -> IPResponse? {
        try? IPResponse(jsonData: json)
    }

    /// The `message` of the answer that an entry of bytes that are no JSON object reads as.
    static let unreadableMessage = "The cache held no readable answer for this address."
}
