import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport of clients built on a `URLSession`: everything URLSession needs, on each
/// platform, stays here, so that the client above it knows only the API.
///
/// It owns, for a session it creates, the session and its invalidation when the transport (with
/// its client) is released. Each request gets a `RequestDelegate`, which keeps the key at the
/// API's origin (no redirect elsewhere) and, on Linux, refuses the authentication challenge of a
/// 401 that would otherwise never end; the transport then answers with that 401. On Linux it also
/// adds `Expect: 100-continue` to a request with a body (see `Platform`).
final class URLSessionTransport: IPDataTransport {
    let session: URLSession
    /// The delegate of the session this transport created and owns; nil for a session it was
    /// given, which it never invalidates.
    let ownedSessionDelegate: OwnedSessionDelegate?

    /// A transport over `session` (`URLSession.shared`, or the caller's), which it never invalidates.
    init(session: URLSession) {
        self.session = session
        self.ownedSessionDelegate = nil
    }

    /// A transport over a session of its own, made once from a copy of `configuration`.
    init(configuration: URLSessionConfiguration) {
        let delegate = OwnedSessionDelegate()
        self.session = URLSession(
            configuration: Platform.ownedSessionConfiguration(configuration), delegate: delegate, delegateQueue: nil)
        self.ownedSessionDelegate = delegate
    }

    deinit {
        if ownedSessionDelegate != nil { session.finishTasksAndInvalidate() }
    }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        var request = request
        if request.httpBody != nil { Platform.prepareBodyRequest(&request) }
        let delegate = RequestDelegate()
        do {
            return try await Platform.data(for: request, session: session, delegate: delegate)
        } catch let error as URLError where error.code == .cancelled && !Task.isCancelled {
            // A refused authentication challenge also ends as `.cancelled`; tell it from a
            // cancelled task, and answer with the 401 the server sent.
            guard let refusal = delegate.refusedChallenge else { throw error }
            return refusal.answer(to: request)
        }
    }
}
