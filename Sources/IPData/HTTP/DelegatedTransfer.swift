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

    /// A piece of the body; false when the body passed the limit and the task must stop.
    func receive(_ data: Data) -> Bool {
        state.withLock { state in
            guard state.stop == nil else { return false }
            if Int64(state.body.count + data.count) > maximumBytes {
                state.stop = .tooLarge(maximumBytes)
                state.body = Data()
                return false
            }
            state.body.append(data)
            return true
        }
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
