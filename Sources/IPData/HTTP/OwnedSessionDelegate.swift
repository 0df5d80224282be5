import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a `URLSession` that the client creates and owns.
///
/// The ipdata API authenticates with its key, never with HTTP authentication, so every
/// authentication challenge is cancelled: on Linux an unanswered challenge (a 401 carrying
/// `WWW-Authenticate: Basic`) leaves the request hanging with no timeout. Cancelling it lets the
/// 401 through, and the client reports it as `IPDataError.unauthorized`.
///
/// The session keeps its delegate until it is invalidated; the delegate holds no reference to
/// the client, so the client can be deallocated and invalidate the session.
// @unchecked Sendable: the only mutable state, `invalidationHandler`, is guarded by `lock`.
final class OwnedSessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    private let lock = NSLock()
    private var invalidationHandler: (@Sendable () -> Void)?

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
        if Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod) {
            completionHandler(.cancelAuthenticationChallenge, nil)
        } else {
            // Certificate checks (server trust, client certificates) stay with the system.
            completionHandler(.performDefaultHandling, nil)
        }
    }
}
