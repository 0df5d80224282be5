import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every error an `IPDataClient` method throws.
///
/// The four client-error cases and `unexpectedStatus` carry the API's own message: the `message`
/// of its JSON error body, else one line of the body (an HTML page's title, else its first line,
/// else the status's reason phrase), at most 300 characters. The API key never appears in an
/// error: not in a message, not in a wrapped `URLError`'s failing URL, not in any description.
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
    case unexpectedStatus(statusCode: Int, message: String)
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
        case .decodingFailed(let underlying): return "Decoding failed: \(Self.text(of: underlying))"
        case .networkError(let underlying): return "Network error: \(Self.text(of: underlying))"
        }
    }

    /// What a wrapped error says, in one sentence, as 1.0.1 wrote it: the error's
    /// `localizedDescription`. For the `URLError`s a lookup meets, the sentence is Apple's
    /// English on every platform (swift-corelibs-foundation has only "The operation could not be
    /// completed. (NSURLErrorDomain error -1001.)").
    static func text(of error: Error) -> String {
        if let urlError = error as? URLError {
            if let given = urlError.userInfo[NSLocalizedDescriptionKey] as? String { return given }
            if let known = urlErrorTexts[urlError.code] { return known }
        }
        return error.localizedDescription
    }

    private static let urlErrorTexts: [URLError.Code: String] = [
        .timedOut: "The request timed out.",
        .cannotFindHost: "A server with the specified hostname could not be found.",
        .cannotConnectToHost: "Could not connect to the server.",
        .networkConnectionLost: "The network connection was lost.",
        .notConnectedToInternet: "The Internet connection appears to be offline.",
        .cancelled: "cancelled",
        .secureConnectionFailed: "An SSL error has occurred and a secure connection to the server cannot be made.",
        .unsupportedURL: "unsupported URL",
    ]
}

extension IPDataError: Equatable {
    /// Whether two errors are the same case with the same status code and message; wrapped
    /// errors are the same when they are of one type, domain and code (`URLError(.timedOut)` is
    /// `URLError(.timedOut)`, whatever its failing URL). So `XCTAssertEqual` and Swift Testing's
    /// `#expect(throws: IPDataError.unauthorized(…))` work.
    public static func == (lhs: IPDataError, rhs: IPDataError) -> Bool {
        switch (lhs, rhs) {
        case (.badRequest(let left), .badRequest(let right)),
            (.unauthorized(let left), .unauthorized(let right)),
            (.forbidden(let left), .forbidden(let right)),
            (.notFound(let left), .notFound(let right)):
            return left == right
        case (.unexpectedStatus(let leftCode, let left), .unexpectedStatus(let rightCode, let right)):
            return leftCode == rightCode && left == right
        case (.decodingFailed(let left), .decodingFailed(let right)),
            (.networkError(let left), .networkError(let right)):
            let (leftError, rightError) = (left as NSError, right as NSError)
            return ObjectIdentifier(type(of: left)) == ObjectIdentifier(type(of: right))
                && leftError.domain == rightError.domain && leftError.code == rightError.code
        default:
            return false
        }
    }
}

extension IPDataError {
    /// Whether the call was cancelled, its task or its session, rather than failed:
    /// `networkError` of `URLError(.cancelled)` or of Swift's `CancellationError`.
    public var isCancellation: Bool {
        guard case .networkError(let underlying) = self else { return false }
        return underlying is CancellationError || (underlying as? URLError)?.code == .cancelled
    }

    /// Whether the API refused the call for the rate of requests: `unexpectedStatus` with status
    /// 429 (Too Many Requests). Nothing was looked up, so the same call may be made again after
    /// `retryAfter`. (A `RetryPolicy` that retries rate limits does that itself.)
    public var isRateLimited: Bool {
        guard case .unexpectedStatus(429, _) = self else { return false }
        return true
    }

    /// The seconds a 429's `Retry-After` header asked to wait, when it had one (an HTTP date is
    /// counted from the answer's arrival); nil for any other error. A 429's message ends with
    /// `(retry after N s)` then, so that its one line says so too.
    public var retryAfter: TimeInterval? {
        guard case .unexpectedStatus(429, let message) = self, message.hasSuffix(" s)"),
            let open = message.range(of: Self.retryAfterOpening, options: .backwards)
        else { return nil }
        return TimeInterval(message[open.upperBound..<message.index(message.endIndex, offsetBy: -3)])
    }

    static let retryAfterOpening = " (retry after "

    /// A 429's error, its message followed by the wait `Retry-After` asked for (`seconds`, rounded
    /// up to whole seconds).
    static func rateLimited(message: String, retryAfter seconds: TimeInterval?) -> IPDataError {
        guard let seconds else { return .unexpectedStatus(statusCode: 429, message: message) }
        let whole = Int(min(seconds, 365 * 24 * 3600).rounded(.up))
        return .unexpectedStatus(statusCode: 429, message: "\(message)\(retryAfterOpening)\(whole) s)")
    }
}

extension IPDataError: LocalizedError {
    /// The same text as `description`, so that `localizedDescription` is useful too.
    public var errorDescription: String? { description }
}
