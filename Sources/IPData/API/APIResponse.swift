import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an HTTP answer into the body of a success or the matching `IPDataError`.
enum APIResponse {
    /// The body of a 2xx answer; any other status throws the error for that status.
    static func successBody(_ data: Data, _ response: URLResponse, redaction: KeyRedaction) throws -> Data {
        guard let http = response as? HTTPURLResponse else {
            throw IPDataError.networkError(URLError(.badServerResponse))
        }
        if (200..<300).contains(http.statusCode) { return data }
        if (300..<400).contains(http.statusCode) {
            throw IPDataError.unexpectedStatus(statusCode: http.statusCode, message: redirectMessage(http))
        }
        throw error(status: http.statusCode, body: data, redaction: redaction)
    }

    /// What a redirect that was not followed means: the transport keeps the key at the API's
    /// origin, and sends no `POST` again. Only the target's origin is named (its URL may carry
    /// the key, copied from the request).
    static func redirectMessage(_ response: HTTPURLResponse) -> String {
        let location = response.value(forHTTPHeaderField: "Location").flatMap {
            URL(string: $0, relativeTo: response.url)
        }
        guard let target = Origin(location) else {
            return "The server answered with a redirect without a usable Location; it was not followed."
        }
        if target != Origin(response.url) {
            return "The server redirected the request to \(target.text), another origin. Redirects there are not "
                + "followed, so that the API key is never sent anywhere but the base URL's origin; check the base URL."
        }
        return "The server redirected the request within \(target.text); a bulk request is not sent again after a "
            + "redirect. Check the base URL."
    }

    static func error(status: Int, body: Data, redaction: KeyRedaction) -> IPDataError {
        let message = redaction.redact(self.message(in: body))
        switch status {
        case 400: return .badRequest(message)
        case 401: return .unauthorized(message)
        case 403: return .forbidden(message)
        case 404: return .notFound(message)
        default: return .unexpectedStatus(statusCode: status, message: message)
        }
    }

    /// The `message` of the API's `{"message": "…"}` error body, else the body as text.
    static func message(in body: Data) -> String {
        if let error = try? JSONDecoder().decode(ErrorBody.self, from: body) { return error.message }
        return String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private struct ErrorBody: Decodable {
        let message: String
    }
}
