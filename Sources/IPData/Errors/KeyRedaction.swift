import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Removes an API key from everything the client may hand back to its caller.
///
/// The key travels in the `api-key` query parameter, so it is part of every request URL, and
/// URLSession copies that URL into the errors it throws (`failingURL`, the user info, the
/// description). Every error leaves the client through `redact(_:)`.
struct KeyRedaction: Sendable {
    static let placeholder = "REDACTED"

    /// The key as sent, and as it appears percent-encoded in a URL; empty forms are dropped.
    private let forms: [String]

    init(apiKey: String) {
        var forms = [apiKey]
        let encoded = URLText.queryValue(apiKey)
        if encoded != apiKey { forms.append(encoded) }
        self.forms = forms.filter { !$0.isEmpty }
    }

    func redact(_ text: String) -> String {
        forms.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.placeholder) }
    }

    func appears(in text: String) -> Bool {
        forms.contains { text.contains($0) }
    }

    func redact(_ url: URL) -> URL {
        URL(string: redact(url.absoluteString)) ?? url
    }

    /// A `URLError` with the same code whose failing URL and description carry no key.
    /// The underlying error is kept only when nothing in it reveals the key.
    func redact(_ error: URLError) -> URLError {
        var userInfo: [String: Any] = [:]
        if let url = error.failingURL {
            userInfo[NSURLErrorFailingURLErrorKey] = redact(url)
        }
        if let description = error.userInfo[NSLocalizedDescriptionKey] as? String {
            userInfo[NSLocalizedDescriptionKey] = redact(description)
        }
        if let underlying = error.userInfo[NSUnderlyingErrorKey],
            !appears(in: String(reflecting: underlying))
        {
            userInfo[NSUnderlyingErrorKey] = underlying
        }
        return URLError(error.code, userInfo: userInfo)
    }

    /// Any error the transport threw, as a `networkError` that cannot reveal the key.
    func networkError(_ error: Error) -> IPDataError {
        if let urlError = error as? URLError { return .networkError(redact(urlError)) }
        if appears(in: String(reflecting: error)) {
            return .networkError(RedactedError(text: redact(String(describing: error))))
        }
        return .networkError(error)
    }
}

/// An error whose text had to be redacted; only the redacted text is kept.
struct RedactedError: Error, CustomStringConvertible, Sendable {
    let text: String
    var description: String { text }
}
