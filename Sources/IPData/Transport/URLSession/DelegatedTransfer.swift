import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request through a session the client owns, whose body arrives piece by piece through the
/// session's delegate (`OwnedSessionDelegate`) rather than whole in a completion handler: so an
/// answer that passes the size limit is stopped as it arrives, before it fills memory. (A
/// completion-handler task holds the whole body until it ends, and swift-corelibs-foundation does
/// not even count its bytes on the way.)
// @unchecked Sendable: every stored property is a `let` of Sendable type or a `Locked`, apart
// from URLSessionDataTask, a thread-safe object that not every SDK declares Sendable.
final class DelegatedTransfer: @unchecked Sendable {
    private struct State {
        var response: URLResponse?
        var body = Data()
        var stop: TransferWatch.Stop?
        var continuation: CheckedContinuation<(Data, URLResponse), Error>?
    }

    let maximumBytes: Int64
    private let state = Locked(State())

    init(maximumBytes: Int64) {
        self.maximumBytes = maximumBytes
    }

    /// Waits for the transfer's end; `start` is called once the waiting has begun.
    func result(start: () -> Void) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.continuation = continuation }
            start()
        }
    }

    /// The answer's head: refused at once when it announces a body over the limit.
    func receive(_ response: URLResponse) -> URLSession.ResponseDisposition {
        state.withLock { state in
            state.response = response
            guard response.expectedContentLength > maximumBytes else { return .allow }
            state.stop = .tooLarge(maximumBytes)
            return .cancel
        }
    }

    /// Keeps a piece of the body, unless the transfer was stopped; true for the first piece that
    /// takes the body past the limit, when the task must be cancelled. That piece and every later
    /// one are dropped at once, with what was kept: a stopped transfer holds no body, and what
    /// URLSession still delivers before the cancel takes effect costs nothing.
    func receive(_ data: Data) -> Bool {
        state.withLock { state in
            guard state.stop == nil else { return false }
            guard Int64(state.body.count + data.count) <= maximumBytes else {
                state.stop = .tooLarge(maximumBytes)
                state.body = Data()
                return true
            }
            state.body.append(data)
            return false
        }
    }

    /// Keeps a piece of `task`'s body (see `receive(_:)`), and cancels the task when that piece
    /// took the body past the limit.
    func receive(_ data: Data, of task: URLSessionDataTask) {
        guard receive(data) else { return }
        // Never in place: on Linux this runs on URLSession's work queue (see
        // `ImmediateDelegateQueue`), and there `cancel()` waits for that queue.
        let task = TransferWatch.UncheckedTask(task: task)
        DispatchQueue.global().async { task.task.cancel() }
    }

    /// The watch stopped the transfer (its deadline).
    func stopped(_ stop: TransferWatch.Stop) {
        state.withLock { if $0.stop == nil { $0.stop = stop } }
    }

    /// The transfer ended, with `error` or not.
    func complete(_ error: Error?) {
        let (continuation, outcome) = state.withLock {
            state -> (CheckedContinuation<(Data, URLResponse), Error>?, Result<(Data, URLResponse), Error>) in
            defer { state.continuation = nil }
            if let stop = state.stop { return (state.continuation, .failure(stop.error)) }
            if let error { return (state.continuation, .failure(error)) }
            guard let response = state.response else {
                return (state.continuation, .failure(URLError(.badServerResponse)))
            }
            return (state.continuation, .success((state.body, response)))
        }
        continuation?.resume(with: outcome)
    }
}
