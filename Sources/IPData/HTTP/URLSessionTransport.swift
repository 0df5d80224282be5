import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport of clients built on a `URLSession`: everything URLSession needs, on each
/// platform, stays here, so that the client above it knows only the API.
///
/// It owns, for a session it creates, the session, its delegate and its invalidation when the
/// transport (with its client) is released. On Linux (see `Platform`) it also adds
/// `Expect: 100-continue` to a request with a body, bounds requests through a session it was
/// given, and turns a refused authentication challenge back into the 401 that carried it.
final class URLSessionTransport: IPDataTransport {
    let session: URLSession
    /// The delegate of the session this transport created and owns; nil for a session it was
    /// given, which it never invalidates.
    let ownedSessionDelegate: OwnedSessionDelegate?
    /// See `Platform.abandonmentLimit(for:)`; nil for a session of its own, whose delegate
    /// refuses the challenges that would otherwise leave a request waiting.
    private let abandonAfter: TimeInterval?

    /// A transport over `session` (`URLSession.shared`, or the caller's), which it never invalidates.
    init(session: URLSession) {
        self.session = session
        self.ownedSessionDelegate = nil
        self.abandonAfter = Platform.abandonmentLimit(for: session)
    }

    /// A transport over a session of its own, made once from a copy of `configuration`.
    init(configuration: URLSessionConfiguration) {
        let delegate = OwnedSessionDelegate()
        self.session = URLSession(
            configuration: Platform.ownedSessionConfiguration(configuration), delegate: delegate, delegateQueue: nil)
        self.ownedSessionDelegate = delegate
        self.abandonAfter = nil
    }

    deinit {
        if ownedSessionDelegate != nil { session.finishTasksAndInvalidate() }
    }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        var request = request
        if request.httpBody != nil { Platform.prepareBodyRequest(&request) }
        do {
            return try await Platform.data(for: request, session: session, abandonAfter: abandonAfter)
        } catch let error as URLError where error.code == .cancelled && !Task.isCancelled {
            // A refused authentication challenge also ends as `.cancelled`; tell it from a
            // cancelled task, and answer with the 401 the server sent.
            guard let refusal = ownedSessionDelegate?.takeRefusedChallenge(for: request.url) else { throw error }
            return refusal.answer(to: request)
        }
    }
}
