import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Removes API keys from text: what the client does to everything it hands back (its errors,
/// what its observer is told), and what a transport or a tool of yours can do to what it writes.
///
/// The key travels in the `api-key` query parameter, so it is part of every request URL, and
/// URLSession copies that URL into the errors it throws (`failingURL`, the user info, the
/// description). Every error leaves the client through `redact(_:)`.
///
/// ```swift
/// KeyRedaction(apiKey: "k3y").redact("GET /8.8.8.8?api-key=k3y")  // "GET /8.8.8.8?api-key=REDACTED"
/// ```
public struct KeyRedaction: Sendable {
    /// What stands in place of a key: `REDACTED`.
    public static let placeholder = "REDACTED"

    /// Each key as given, and as it appears percent-encoded in a URL, longest first (so that a
    /// key that contains another is replaced whole); empty forms are dropped.
    private let forms: [String]

    /// Removes `apiKey`, as given and percent-encoded.
    public init(apiKey: String) {
        self.init(apiKeys: [apiKey])
    }

    /// Removes each of `apiKeys`, as given and percent-encoded; an empty key is left out.
    public init(apiKeys: [String]) {
        var forms: [String] = []
        for key in apiKeys {
            for form in [key, URLText.queryValue(key)] where !form.isEmpty && !forms.contains(form) {
                forms.append(form)
            }
        }
        self.forms = forms.sorted { $0.count > $1.count }
    }

    /// `text` with each form of a key replaced by `REDACTED` wherever it stands as a token of its
    /// own: in a query (`api-key=KEY&`), a header (`api-key: KEY`), a URL, a message that echoes
    /// it. A form inside a longer word is not the key and is left alone, so that a short key
    /// (`e`) cannot turn `Unauthorized` into `UnauthorizREDACTEDd`.
    public func redact(_ text: String) -> String {
        forms.reduce(text) { text, form in Self.replacingTokens(form, in: text) }
    }

    /// Whether a key stands in `text` as a token of its own (see `redact(_:)`).
    func appears(in text: String) -> Bool {
        forms.contains { Self.replacingTokens($0, in: text) != text }
    }

    /// Letters, digits, `-` and `_` make words and keys; anything else ends one.
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_"
    }

    private static func replacingTokens(_ form: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: form) {
            // `rest` shares `text`'s indices, so its neighbours are read from `text`.
            let startsAToken =
                range.lowerBound == text.startIndex || !isWordCharacter(text[text.index(before: range.lowerBound)])
            let endsAToken = range.upperBound == text.endIndex || !isWordCharacter(text[range.upperBound])
            result += rest[..<range.lowerBound]
            result += startsAToken && endsAToken ? placeholder : form
            rest = rest[range.upperBound...]
        }
        return result + rest
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
