import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a `URLSession` that the client creates and owns. It hands each answer, as it
/// arrives, to its request's `DelegatedTransfer` (which stops one that passes the size limit),
/// and reports that the session was invalidated, which the tests use to see a released client
/// let go of its session.
///
/// Where Foundation has no task delegates (Linux before Swift 6), it also passes each request's
/// redirects and challenges on to that request's `RequestDelegate`, which the transport routes
/// to it; elsewhere the request's own delegate answers them first.
///
/// The session keeps its delegate until it is invalidated; the delegate holds no reference to
/// the client, so the client can be deallocated and invalidate the session.
// @unchecked Sendable: NSObject subclasses cannot be checked; its stored properties are `Locked`.
final class OwnedSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let invalidationHandler = Locked<(@Sendable () -> Void)?>(nil)
    /// The delegate of each request in flight, by task identifier.
    private let routes = Locked<[Int: RequestDelegate]>([:])
    /// The transfer of each request in flight, by task identifier.
    private let transfers = Locked<[Int: DelegatedTransfer]>([:])

    /// Hands `task`'s answer, as it arrives, to `transfer`.
    func track(_ task: URLSessionTask, _ transfer: DelegatedTransfer) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    /// Runs `handler` once the session has been invalidated.
    func onInvalidation(_ handler: @escaping @Sendable () -> Void) {
        invalidationHandler.withLock { $0 = handler }
    }

    /// Passes `task`'s redirects and challenges on to `delegate`.
    func route(_ task: URLSessionTask, to delegate: RequestDelegate) {
        routes.withLock { $0[task.taskIdentifier] = delegate }
    }

    /// Forgets the request that `delegate` served.
    func forget(_ delegate: RequestDelegate) {
        routes.withLock { routes in
            if let key = routes.first(where: { $0.value === delegate })?.key { routes[key] = nil }
        }
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        let handler = invalidationHandler.withLock { handler -> (@Sendable () -> Void)? in
            defer { handler = nil }
            return handler
        }
        handler?()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let transfer = transfers.withLock { $0[dataTask.taskIdentifier] }
        completionHandler(transfer?.receive(response) ?? .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let transfer = transfers.withLock { $0[dataTask.taskIdentifier] }
        transfer?.receive(data, of: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let decision = RequestDelegate.redirectDecision(for: task, to: request)
        completionHandler(decision)
    }

    #if canImport(FoundationNetworking)
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let delegate = routes.withLock { $0[task.taskIdentifier] }
        let disposition = delegate?.answer(challenge) ?? .performDefaultHandling
        // Never in place: this runs on URLSession's work queue (see `ImmediateDelegateQueue`), and
        // the refusal cancels the task, which waits for that queue.
        let handler = UncheckedChallengeCompletion(call: completionHandler)
        DispatchQueue.global().async { handler.call(disposition, nil) }
    }

    /// A challenge's completion handler, handed to another queue; URLSession calls it once, from
    /// any thread.
    // @unchecked Sendable: URLSession's completion handlers may be called from any thread.
    private struct UncheckedChallengeCompletion: @unchecked Sendable {
        let call: (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    }
    #endif
}
