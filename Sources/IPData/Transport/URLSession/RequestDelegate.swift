import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of each request the URLSession transport sends, whatever session carries it
/// (`URLSession.shared`, the caller's, or the client's own): a task delegate takes precedence over
/// the session's for the calls it answers.
///
/// - **Redirects.** The key travels in the URL and in a header, and URLSession would carry both
///   to wherever a redirect points, even from `https` down to `http`. A redirect to another origin
///   (scheme, host or port) is refused, and so is any redirect of a `POST` (URLSession would send a
///   `POST /bulk` again with an empty body). The 3xx then comes back as the answer, and the client
///   reports it as `unexpectedStatus`.
/// - **Authentication challenges, on Linux.** The ipdata API authenticates with its key, never
///   with HTTP authentication, and on Linux a 401 carrying `WWW-Authenticate` waits forever for
///   an answer to its challenge. Such a challenge is refused; the transport then answers with the
///   401 itself. Certificate challenges go to the session's own delegate (which may pin
///   certificates), else get the default handling. On Apple platforms URLSession delivers the 401
///   itself, so every challenge is left to the session.
// @unchecked Sendable: NSObject subclasses cannot be checked; its one stored property is a `Locked`.
final class RequestDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
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

    private let refusal = Locked<RefusedChallenge?>(nil)

    /// The challenge refused for this request, if one was.
    var refusedChallenge: RefusedChallenge? {
        refusal.withLock { $0 }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(Self.redirectDecision(for: task, to: request))
    }

    /// `request` when `task` may follow a redirect to it (a `GET` within its origin), else nil.
    static func redirectDecision(for task: URLSessionTask, to request: URLRequest) -> URLRequest? {
        let isPost = task.originalRequest?.httpMethod == "POST"
        guard let origin = Origin(task.originalRequest?.url), !isPost, Origin(request.url) == origin else {
            return nil
        }
        return request
    }

    #if canImport(FoundationNetworking)
    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let disposition = answer(challenge) {
            completionHandler(disposition, nil)
        } else if let sessionDelegate = session.delegate as? URLSessionTaskDelegate {
            // Certificate checks (server trust, client certificates) stay with the session's
            // delegate, which may pin certificates.
            let handler = UncheckedCompletion(call: completionHandler)
            sessionDelegate.urlSession(session, task: task, didReceive: challenge) { handler.call($0, $1) }
        } else {
            completionHandler(.performDefaultHandling, nil)
        }
    }

    /// What to answer to `challenge`: a refusal of HTTP authentication, remembered so that the
    /// transport can answer with the 401; nil for a certificate challenge, which is not ours.
    func answer(_ challenge: URLAuthenticationChallenge) -> URLSession.AuthChallengeDisposition? {
        guard Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod) else {
            return nil
        }
        let refused = RefusedChallenge(
            status: (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401,
            reason: Self.describe(challenge))
        refusal.withLock { $0 = refused }
        return .cancelAuthenticationChallenge
    }

    /// A completion handler passed on to the session's delegate, which the newer Foundation wants
    /// `@Sendable`; URLSession calls it once, from any thread.
    // @unchecked Sendable: URLSession's completion handlers may be called from any thread.
    private struct UncheckedCompletion: @unchecked Sendable {
        let call: (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    }

    private static func describe(_ challenge: URLAuthenticationChallenge) -> String {
        let response = challenge.failureResponse as? HTTPURLResponse
        let status = response.map { "HTTP \($0.statusCode)" } ?? "An authentication challenge"
        let scheme =
            (response?.value(forHTTPHeaderField: "WWW-Authenticate")).map { " (WWW-Authenticate: \($0))" } ?? ""
        return "\(status)\(scheme): the server asked for HTTP authentication, which the ipdata API does not use. "
            + "Check the API key and the base URL."
    }
    #endif
}
