import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an HTTP answer that is not a success into the matching `IPDataError`.
enum APIResponse {
    /// The error of `answer`, a status that is not 2xx, to a request of `requestURL`.
    static func error(of answer: IPDataTransportResponse, to requestURL: URL?, redaction: KeyRedaction) -> IPDataError {
        if (300..<400).contains(answer.statusCode) {
            return .unexpectedStatus(
                statusCode: answer.statusCode, message: redirectMessage(answer, answering: answer.url ?? requestURL))
        }
        let error = error(status: answer.statusCode, body: answer.body, redaction: redaction)
        // A 429 carries the wait its Retry-After asked for (see `IPDataError.retryAfter`).
        guard case .unexpectedStatus(429, let message) = error,
            let header = answer.value(forHTTPHeaderField: "Retry-After")
        else { return error }
        return .rateLimited(message: message, retryAfter: RetryAfter.seconds(header, now: Date()))
    }

    /// What a redirect that was not followed means: the transport keeps the key at the API's
    /// origin, and sends no `POST` again. Only the target's origin is named (its URL may carry
    /// the key, copied from the request).
    static func redirectMessage(_ answer: IPDataTransportResponse, answering url: URL?) -> String {
        let location = answer.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0, relativeTo: url) }
        guard let target = Origin(location) else {
            return "The server answered with a redirect without a usable Location; it was not followed."
        }
        if target != Origin(url) {
            return "The server redirected the request to \(target.text), another origin. Redirects there are not "
                + "followed, so that the API key is never sent anywhere but the base URL's origin; check the base URL."
        }
        return "The server redirected the request within \(target.text); a bulk request is not sent again after a "
            + "redirect. Check the base URL."
    }

    static func error(status: Int, body: Data, redaction: KeyRedaction) -> IPDataError {
        let message = redaction.redact(self.message(in: body, status: status))
        switch status {
        case 400: return .badRequest(message)
        case 401: return .unauthorized(message)
        case 403: return .forbidden(message)
        case 404: return .notFound(message)
        default: return .unexpectedStatus(statusCode: status, message: message)
        }
    }

    /// The longest message an error carries, in characters; a longer one is cut with `…`.
    static let maximumMessageLength = 300

    /// The `message` of the API's `{"message": "…"}` error body. Any other body is not the API's:
    /// an HTML page (a proxy's, a gateway's) gives its title, other text its first line, and an
    /// empty body the status's reason phrase. Either way one line of at most
    /// `maximumMessageLength` characters, so that a megabyte error page cannot flood a log.
    static func message(in body: Data, status: Int) -> String {
        let text: String
        if let error = try? JSONDecoder().decode(ErrorBody.self, from: body) {
            text = error.message
        } else {
            let page = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
            text = htmlTitle(in: page) ?? page.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { return HTTPURLResponse.localizedString(forStatusCode: status) }
        return line.count > maximumMessageLength ? line.prefix(maximumMessageLength - 1) + "…" : line
    }

    /// The text of an HTML page's `<title>`, if the page has a non-empty one.
    private static func htmlTitle(in page: String) -> String? {
        guard let open = page.range(of: "<title", options: .caseInsensitive),
            let start = page[open.upperBound...].firstIndex(of: ">"),
            let close = page[start...].range(of: "</title>", options: .caseInsensitive)
        else { return nil }
        let title = page[page.index(after: start)..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? nil : title
    }

    private struct ErrorBody: Decodable {
        let message: String
    }
}
