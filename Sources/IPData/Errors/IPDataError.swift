import Foundation

/// Every error an `IPDataClient` method throws.
///
/// The four client-error cases and `unexpectedStatus` carry the API's own message: the `message`
/// of its JSON error body, else the body as text. The API key never appears in an error: not in
/// a message, not in a wrapped `URLError`'s failing URL, not in any description.
public enum IPDataError: Error, Sendable {
    /// HTTP 400: the request was refused, for example because the address is private or invalid.
    case badRequest(String)
    /// HTTP 401: the API key is missing or invalid.
    case unauthorized(String)
    /// HTTP 403: the quota is exhausted, or the plan does not allow the call (bulk, ASN data).
    case forbidden(String)
    /// HTTP 404: the requested resource, for example an ASN, does not exist.
    case notFound(String)
    /// Any other HTTP status that is not a success, with the status code and the API's message.
    case unexpectedStatus(Int, String)
    /// The API answered with a success status, but the body was not the JSON the call expects.
    case decodingFailed(Error)
    /// The request never got an HTTP answer: no connection, a timeout, a cancelled task.
    /// A wrapped `URLError` keeps its code; its failing URL has the API key redacted.
    case networkError(Error)
}

extension IPDataError: CustomStringConvertible {
    /// A one-line summary, for example `Forbidden: You have exceeded your free quota. …`.
    public var description: String {
        switch self {
        case .badRequest(let message): return "Bad Request: \(message)"
        case .unauthorized(let message): return "Unauthorized: \(message)"
        case .forbidden(let message): return "Forbidden: \(message)"
        case .notFound(let message): return "Not Found: \(message)"
        case .unexpectedStatus(let code, let message): return "HTTP \(code): \(message)"
        case .decodingFailed(let underlying): return "Decoding failed: \(underlying)"
        case .networkError(let underlying): return "Network error: \(underlying)"
        }
    }
}

extension IPDataError: LocalizedError {
    /// The same text as `description`, so that `localizedDescription` is useful too.
    public var errorDescription: String? { description }
}
