import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What URLSession does differently on Linux (swift-corelibs-foundation on libcurl) and how the
/// client copes. Every platform difference of the client lives in this file.
enum Platform {
    /// Sends a request with `delegate` as its task delegate and returns the body and response.
    /// Cancelling the calling task cancels the HTTP request.
    static func data(
        for request: URLRequest, session: URLSession, delegate: RequestDelegate
    ) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
        // Linux wraps a data task rather than calling URLSession's async `data(for:)`, on every
        // toolchain. Swift 5.9 and 5.10 have no such method. On Swift 6.x (to 6.3 at least), its
        // cancellation can deadlock: the task's cancellation handler calls
        // `URLSessionTask.cancel()` under the task's own status lock, while URLSession's work
        // queue, finishing the same request, waits for that lock (swift-corelibs-foundation issue
        // 5412). Here the cancellation only hands `cancel()` to another queue. (There is no
        // `URLSession` extension either: one would shadow the built-in method for every importer.)
        let pending = PendingDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    pending.finish()
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                task.delegate = delegate
                pending.start(task)
            }
        } onCancel: {
            pending.cancel()
        }
        #else
        return try await session.data(for: request, delegate: delegate)
        #endif
    }

    /// The configuration of a session the client creates: a copy of `configuration` (the
    /// caller's object is left alone), without a `URLCache`, on every platform.
    ///
    /// Every request URL carries the API key (`?api-key=…`): a cache would keep it, with the
    /// answers, in its store (on disk, for `URLCache.shared` on Apple platforms), and could answer
    /// a lookup with stale threat data. On Linux there is a second reason: a session with a
    /// `URLCache` looks each data task up in the cache on another queue before it starts, and a
    /// task cancelled while its answer arrives can then be failed after URLSession has forgotten
    /// it, which stops the process ("Trying to access a behaviour for a task that in not in the
    /// registry"). `LookupCache` is the client's own cache, keyed without the key.
    static func ownedSessionConfiguration(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        // `copy()` of a URLSessionConfiguration is always a URLSessionConfiguration.
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        copy.urlCache = nil
        return copy
    }

    /// Adjusts a request that carries a body (`POST /bulk`).
    ///
    /// On Linux, when a pooled keep-alive connection dies after a request was written, libcurl
    /// silently resends the request on a new connection, but without the body of a POST: the
    /// call then hangs until the request timeout. With `Expect: 100-continue` the body is held
    /// back until the server agrees to read it, so libcurl's resend carries the whole body
    /// (measured in the integration tests: the race ends in about 20 ms).
    static func prepareBodyRequest(_ request: inout URLRequest) {
        #if canImport(FoundationNetworking)
        request.setValue("100-continue", forHTTPHeaderField: "Expect")
        #endif
    }
}

#if canImport(FoundationNetworking)
/// The data task of one request, cancellable from any thread, even before it started.
///
/// `cancel()` never calls into URLSession on the calling thread: Swift runs a cancellation
/// handler while holding the cancelled task's status lock, and URLSession's work queue may be
/// waiting for that very lock to resume the task, so `URLSessionTask.cancel()` is sent to
/// another queue.
private final class PendingDataTask: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var isCancelled = false
        var isFinished = false
    }

    private let state = Locked(State())

    /// Called by the completion handler: the task is over, and a later `cancel()` does nothing.
    func finish() {
        state.withLock { $0.isFinished = true }
    }

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.isCancelled
        }
        // Not under a task's status lock here, so cancelling in place is safe.
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.isCancelled = true
            return state.isFinished ? nil : state.task
        }
        guard let task else { return }
        DispatchQueue.global().async { task.cancel() }
    }
}
#endif
