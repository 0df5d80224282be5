import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a `URLSession` that the client creates and owns.
///
/// On Linux, every HTTP authentication challenge is refused. The ipdata API authenticates with
/// its key, never with HTTP authentication, and there an unanswered challenge (a 401 carrying
/// `WWW-Authenticate: Basic`) leaves the request hanging with no timeout. Refusing it ends the
/// request with `URLError.cancelled`; the delegate remembers the refusal, and the transport
/// answers with the 401 instead, which the client reports as `IPDataError.unauthorized`.
///
/// On Apple platforms every challenge gets the system's default handling, which delivers the
/// 401 itself (refusing it there would turn a plain 401 into a cancelled request).
/// Certificate challenges get the default handling everywhere.
///
/// The session keeps its delegate until it is invalidated; the delegate holds no reference to
/// the client, so the client can be deallocated and invalidate the session.
// @unchecked Sendable: NSObject subclasses cannot be checked; its one stored property is a `Locked`.
final class OwnedSessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    private struct State {
        var invalidationHandler: (@Sendable () -> Void)?
        /// The challenges refused, by request URL, oldest first.
        var refusedChallenges: [String: [RefusedChallenge]] = [:]
    }

    private let state = Locked(State())

    /// A challenge that was refused: the status of the answer that carried it, and why.
    struct RefusedChallenge: Sendable {
        let status: Int
        let reason: String

        /// The answer the server gave, with `reason` as its API-style `{"message": …}` body.
        func answer(to request: URLRequest) -> (Data, URLResponse) {
            let body = (try? JSONSerialization.data(withJSONObject: ["message": reason])) ?? Data()
            let url = request.url ?? IPDataClient.defaultBaseURL
            let headers = ["Content-Type": "application/json"]
            guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: headers)
            else {
                return (body, URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil))
            }
            return (body, response)
        }
    }

    /// The refused challenge of a request to `url`, if there was one; each is handed out once.
    func takeRefusedChallenge(for url: URL?) -> RefusedChallenge? {
        guard let key = url?.absoluteString else { return nil }
        return state.withLock { state in
            guard var reasons = state.refusedChallenges[key], !reasons.isEmpty else { return nil }
            let reason = reasons.removeFirst()
            state.refusedChallenges[key] = reasons.isEmpty ? nil : reasons
            return reason
        }
    }

    /// Runs `handler` once the session has been invalidated (used by tests to see `deinit` work).
    func onInvalidation(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.invalidationHandler = handler }
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            defer { state.invalidationHandler = nil }
            return state.invalidationHandler
        }
        handler?()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if Platform.refusesAuthenticationChallenges,
            Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod)
        {
            if let key = task.originalRequest?.url?.absoluteString {
                let refusal = RefusedChallenge(
                    status: (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401,
                    reason: Self.describe(challenge))
                state.withLock { $0.refusedChallenges[key, default: []].append(refusal) }
            }
            completionHandler(.cancelAuthenticationChallenge, nil)
        } else {
            // Certificate checks (server trust, client certificates) stay with the system.
            completionHandler(.performDefaultHandling, nil)
        }
    }

    private static func describe(_ challenge: URLAuthenticationChallenge) -> String {
        let response = challenge.failureResponse as? HTTPURLResponse
        let status = response.map { "HTTP \($0.statusCode)" } ?? "An authentication challenge"
        let scheme =
            (response?.value(forHTTPHeaderField: "WWW-Authenticate")).map { " (WWW-Authenticate: \($0))" } ?? ""
        return "\(status)\(scheme): the server asked for HTTP authentication, which the ipdata API does not use. "
            + "Check the API key and the base URL."
    }
}
