import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer as a transport hands it to the client (`IPDataTransport.response(for:limits:)`):
/// its status, its headers and its body, and the URL that gave it when that is not the request's.
///
/// The client reads the status once, the body of a success, and of another answer the headers it
/// acts on (`Retry-After`, `Location`) and the body's message.
public struct IPDataTransportResponse: Sendable {
    /// The answer's HTTP status, such as 200 or 429.
    public var statusCode: Int
    /// The answer's body, whole.
    public var body: Data
    /// The URL that gave the answer, when the transport followed a redirect within the request's
    /// origin; nil for the request's own URL. (An answer from another origin is refused.)
    public var url: URL?

    /// The headers, as they came: names as the server wrote them, in order, a name repeated for
    /// each value.
    public var headers: [(name: String, value: String)] {
        get { storage.headers }
        set { storage = .fields(newValue) }
    }

    private var storage: Storage

    /// Where the headers are: given as fields, or in the `HTTPURLResponse` URLSession made, read
    /// only when asked (most answers are successes, whose headers the client never reads).
    private enum Storage: Sendable {
        case fields([(name: String, value: String)])
        case urlResponse(ReceivedResponse)

        var headers: [(name: String, value: String)] {
            switch self {
            case .fields(let fields):
                return fields
            case .urlResponse(let received):
                return received.response.allHeaderFields.compactMap { name, value in
                    guard let name = name as? String, let value = value as? String else { return nil }
                    return (name, value)
                }
            }
        }
    }

    /// An answer of `statusCode` with `headers` and `body`, from the request's own URL unless
    /// `url` says otherwise.
    public init(statusCode: Int, headers: [(name: String, value: String)] = [], body: Data, url: URL? = nil) {
        self.statusCode = statusCode
        self.body = body
        self.url = url
        self.storage = .fields(headers)
    }

    /// The answer URLSession gave to a request of `requestURL`, its headers read from `response`
    /// only when asked.
    init(_ response: HTTPURLResponse, body: Data, requestURL: URL?) {
        self.statusCode = response.statusCode
        self.body = body
        self.url = response.url == requestURL ? nil : response.url
        self.storage = .urlResponse(ReceivedResponse(response: response))
    }

    /// The value of the header `name` (in any letter case), its values joined by `, ` when it
    /// came more than once; nil when the answer has none.
    public func value(forHTTPHeaderField name: String) -> String? {
        switch storage {
        case .urlResponse(let received):
            return received.response.value(forHTTPHeaderField: name)
        case .fields(let fields):
            let values = fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
    }

    /// The answer as URLSession would give it to a request, for a caller of `data(for:)`.
    func urlResponse(for request: URLRequest) -> URLResponse {
        let url = self.url ?? request.url ?? IPDataClient.defaultBaseURL
        if case .urlResponse(let received) = storage, received.response.url == url { return received.response }
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name] = fields[name].map { "\($0), \(value)" } ?? value }
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: nil, headerFields: fields)
            ?? URLResponse(url: url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
    }
}

/// An `HTTPURLResponse` that URLSession made, which not every platform's SDK declares `Sendable`.
// @unchecked Sendable: an HTTPURLResponse is never changed after URLSession made it.
private struct ReceivedResponse: @unchecked Sendable {
    let response: HTTPURLResponse
}
