import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request sent as a URLSession data task, within the client's limits (see `TransferWatch`):
/// how `URLSessionTransport` sends on every platform. What else URLSession does differently on
/// Linux is in `URLSessionQuirks`.
enum DataTaskCall {
    /// Sends a request and returns the body and response, within `limits` (see `TransferWatch`);
    /// `attach` is given the task before it starts. Cancelling the calling task cancels the HTTP
    /// request.
    ///
    /// Every platform wraps a data task rather than calling URLSession's async `data(for:)`, so
    /// that the watch can see the task. On Linux there are two more reasons: Swift 5.9 and 5.10
    /// have no such method, and on Swift 6.x (to 6.3 at least) its cancellation can deadlock: the
    /// task's cancellation handler calls `URLSessionTask.cancel()` under the task's own status
    /// lock, while URLSession's work queue, finishing the same request, waits for that lock
    /// (swift-corelibs-foundation issue 5412). Here the cancellation only hands `cancel()` to
    /// another queue. (There is no `URLSession` extension either: one would shadow the built-in
    /// method for every importer.)
    static func data(
        for request: URLRequest, session: URLSession, limits: IPDataTransportLimits,
        attach: @escaping @Sendable (URLSessionDataTask) -> Void
    ) async throws -> (Data, URLResponse) {
        let pending = PendingDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let stop = pending.finish() {
                        continuation.resume(throwing: stop.error)
                    } else if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        // On Linux the watch sees no bytes of such a task arrive: an answer over
                        // the limit is refused once it has.
                        let body = data ?? Data()
                        guard body.count <= limits.maximumResponseSize else {
                            let stop = TransferWatch.Stop.tooLarge(Int64(limits.maximumResponseSize))
                            return continuation.resume(throwing: stop.error)
                        }
                        continuation.resume(returning: (body, response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                attach(task)
                pending.start(task, limits: limits)
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// Sends a request whose body a delegate hands over piece by piece to its
    /// `DelegatedTransfer`, which stops an answer past the size limit as it arrives; `attach` is
    /// given the task and its transfer before the task starts. Otherwise as `data(for:…)`.
    static func delegatedData(
        for request: URLRequest, session: URLSession, limits: IPDataTransportLimits,
        attach: @escaping @Sendable (URLSessionDataTask, DelegatedTransfer) -> Void
    ) async throws -> (Data, URLResponse) {
        let transfer = DelegatedTransfer(maximumBytes: Int64(limits.maximumResponseSize))
        let pending = PendingDataTask()
        defer { _ = pending.finish() }
        return try await withTaskCancellationHandler {
            try await transfer.result {
                let task = session.dataTask(with: request)
                attach(task, transfer)
                pending.start(task, limits: limits) { transfer.stopped($0) }
            }
        } onCancel: {
            pending.cancel()
        }
    }
}

/// The data task of one request, cancellable from any thread, even before it started, and
/// watched by `TransferWatch` while it runs.
///
/// `cancel()` never calls into URLSession on the calling thread: Swift runs a cancellation
/// handler while holding the cancelled task's status lock, and URLSession's work queue may be
/// waiting for that very lock to resume the task, so `URLSessionTask.cancel()` is sent to
/// another queue.
private final class PendingDataTask: Sendable {
    // @unchecked Sendable: a URLSessionDataTask is a thread-safe object that not every
    // platform's SDK declares Sendable; it is only read under the lock that guards this state.
    private struct State: @unchecked Sendable {
        var task: URLSessionDataTask?
        var watch: UInt64?
        var stop: TransferWatch.Stop?
        var isCancelled = false
        var isFinished = false
    }

    private let state = Locked(State())

    /// Called by the completion handler: the task is over, and a later `cancel()` does nothing.
    /// Returns why the watch stopped it, if it did.
    func finish() -> TransferWatch.Stop? {
        let (watch, stop) = state.withLock { state -> (UInt64?, TransferWatch.Stop?) in
            state.isFinished = true
            defer { state.watch = nil }
            return (state.watch, state.stop)
        }
        if let watch { TransferWatch.shared.end(watch) }
        return stop
    }

    /// Starts `task` under the watch; `onStop` hears why the watch stopped it (by default, the
    /// completion handler's `finish()` does).
    func start(
        _ task: URLSessionDataTask, limits: IPDataTransportLimits,
        onStop: (@Sendable (TransferWatch.Stop) -> Void)? = nil
    ) {
        let watch = TransferWatch.shared.watch(task, limits: limits) { [self] stop in
            if let onStop { onStop(stop) } else { state.withLock { $0.stop = stop } }
        }
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            state.watch = watch
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
