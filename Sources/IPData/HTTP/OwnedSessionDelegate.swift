import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a `URLSession` that the client creates and owns. Each request's own
/// `RequestDelegate` answers redirects and challenges; this one only reports that the session
/// was invalidated, which the tests use to see a released client let go of its session.
///
/// The session keeps its delegate until it is invalidated; the delegate holds no reference to
/// the client, so the client can be deallocated and invalidate the session.
// @unchecked Sendable: NSObject subclasses cannot be checked; its one stored property is a `Locked`.
final class OwnedSessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let invalidationHandler = Locked<(@Sendable () -> Void)?>(nil)

    /// Runs `handler` once the session has been invalidated.
    func onInvalidation(_ handler: @escaping @Sendable () -> Void) {
        invalidationHandler.withLock { $0 = handler }
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        let handler = invalidationHandler.withLock { handler -> (@Sendable () -> Void)? in
            defer { handler = nil }
            return handler
        }
        handler?()
    }
}
