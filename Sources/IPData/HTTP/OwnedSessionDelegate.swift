import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a `URLSession` that the client creates and owns.
///
/// On Linux, every HTTP authentication challenge is refused. The ipdata API authenticates with
/// its key, never with HTTP authentication, and there an unanswered challenge (a 401 carrying
/// `WWW-Authenticate: Basic`) leaves the request hanging with no timeout. Refusing it ends the
/// request with `URLError.cancelled`; the delegate remembers why, and the client reports
/// `IPDataError.unauthorized` instead.
///
/// On Apple platforms every challenge gets the system's default handling, which delivers the
/// 401 itself (refusing it there would turn a plain 401 into a cancelled request).
/// Certificate challenges get the default handling everywhere.
///
/// The session keeps its delegate until it is invalidated; the delegate holds no reference to
/// the client, so the client can be deallocated and invalidate the session.
// @unchecked Sendable: the mutable state (`invalidationHandler`, `refusedChallenges`) is guarded by `lock`.
final class OwnedSessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    private let lock = NSLock()
    private var invalidationHandler: (@Sendable () -> Void)?
    /// Why challenges were refused, by request URL, oldest first.
    private var refusedChallenges: [String: [String]] = [:]

    /// The reason a challenge for a request to `url` was refused, if one was; each reason is
    /// handed out once.
    func takeRefusedChallenge(for url: URL?) -> String? {
        guard let key = url?.absoluteString else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard var reasons = refusedChallenges[key], !reasons.isEmpty else { return nil }
        let reason = reasons.removeFirst()
        refusedChallenges[key] = reasons.isEmpty ? nil : reasons
        return reason
    }

    /// Runs `handler` once the session has been invalidated (used by tests to see `deinit` work).
    func onInvalidation(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        invalidationHandler = handler
        lock.unlock()
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        lock.lock()
        let handler = invalidationHandler
        invalidationHandler = nil
        lock.unlock()
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
                let reason = Self.describe(challenge)
                lock.lock()
                refusedChallenges[key, default: []].append(reason)
                lock.unlock()
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
