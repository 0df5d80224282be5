import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What URLSession does differently on Linux (swift-corelibs-foundation on libcurl) and how the
/// client copes. Every platform difference of the client lives in this file.
enum Platform {
    /// Sends a request and returns the body and response. Cancelling the calling task cancels
    /// the HTTP request.
    static func data(for request: URLRequest, session: URLSession) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking) && !compiler(>=6.0)
        // Swift 5.9 and 5.10 on Linux have no async `data(for:)`: wrap a data task, and cancel it
        // when the task is cancelled. (No `URLSession` extension: on newer toolchains one would
        // shadow the built-in method, which is cancellable.)
        let pending = PendingDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                pending.start(task)
            }
        } onCancel: {
            pending.cancel()
        }
        #else
        return try await session.data(for: request)
        #endif
    }

    /// Adjusts a request that carries a body (`POST /bulk`).
    ///
    /// On Linux, when a pooled keep-alive connection dies after a request was written, libcurl
    /// silently resends the request on a new connection, but without the body of a POST: the
    /// call then hangs until the request timeout. With `Expect: 100-continue` the body is held
    /// back until the server agrees to read it, so a dead connection surfaces at once as
    /// `URLError.networkConnectionLost`, which `bulkLookup` retries once with the whole body.
    static func prepareBodyRequest(_ request: inout URLRequest) {
        #if canImport(FoundationNetworking)
        request.setValue("100-continue", forHTTPHeaderField: "Expect")
        #endif
    }
}

#if canImport(FoundationNetworking) && !compiler(>=6.0)
/// The data task of one request, cancellable from another thread even before it started.
// @unchecked Sendable: both stored properties are read and written only while holding `lock`.
private final class PendingDataTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false

    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
#endif
