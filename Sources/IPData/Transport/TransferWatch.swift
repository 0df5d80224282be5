import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Watches the data tasks in flight, ten times a second, and stops one that runs past its
/// deadline or receives more than its byte limit.
///
/// URLSession's timeout is an idle timeout: a server that trickles one byte a second keeps a
/// request alive for ever, and a completion-handler task holds the whole body in memory before
/// anyone sees it, so an endless body grows until memory runs out. One watcher serves every
/// request (registering is a lock and a dictionary entry); its timer runs only while requests
/// are in flight, and a second after.
final class TransferWatch: Sendable {
    /// Why the watch stopped a task.
    enum Stop: Sendable {
        case deadline(TimeInterval)
        case tooLarge(Int64)
    }

    private struct Entry {
        /// Cancels the watched work.
        let cancel: @Sendable () -> Void
        /// The bytes received so far, where the work can tell (Apple's URLSession tasks).
        let received: (@Sendable () -> Int64)?
        let deadline: UInt64
        let limits: IPDataTransportLimits
        let stop: @Sendable (Stop) -> Void
    }

    // @unchecked Sendable: the dispatch timer is a thread-safe object, only touched under
    // `state`'s lock.
    private struct State: @unchecked Sendable {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var timer: DispatchSourceTimer?
        /// Checks in a row that found nothing to watch.
        var idleChecks = 0
    }

    static let shared = TransferWatch()

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "IPData.TransferWatch")
    private static let interval: DispatchTimeInterval = .milliseconds(100)

    /// Watches `task` until `end(_:)`; `stop` is called once, before the task is cancelled.
    func watch(
        _ task: URLSessionTask, limits: IPDataTransportLimits, stop: @escaping @Sendable (Stop) -> Void
    ) -> UInt64 {
        let task = UncheckedTask(task: task)
        return watch(
            limits: limits, cancel: { task.task.cancel() }, received: { Self.bytes(of: task.task) }, stop: stop)
    }

    /// Watches any work until `end(_:)`, by its deadline only: `stop`, then `cancel`, once it
    /// passes it.
    func watch(
        limits: IPDataTransportLimits, cancel: @escaping @Sendable () -> Void,
        received: (@Sendable () -> Int64)? = nil,
        stop: @escaping @Sendable (Stop) -> Void
    ) -> UInt64 {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, limits.deadline) * 1_000_000_000)
        let entry = Entry(cancel: cancel, received: received, deadline: deadline, limits: limits, stop: stop)
        return state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = entry
            if state.timer == nil {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
                timer.setEventHandler { [weak self] in self?.check() }
                timer.resume()
                state.timer = timer
            }
            return state.nextID
        }
    }

    /// The answer of `send`, a transport of the caller's, held to `limits`: the call is cancelled
    /// at the deadline (`send` runs in a task of its own, so that the watch can cancel it), and an
    /// answer over the size limit is refused once it has arrived.
    func hold(
        _ limits: IPDataTransportLimits, _ send: @escaping @Sendable () async throws -> (Data, URLResponse)
    ) async throws -> (Data, URLResponse) {
        let work = Task { try await send() }
        let stopped = Locked<Stop?>(nil)
        let id = watch(limits: limits, cancel: { work.cancel() }, stop: { stop in stopped.withLock { $0 = stop } })
        defer { end(id) }
        let answer: (Data, URLResponse)
        do {
            answer = try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            if let stop = stopped.withLock({ $0 }) { throw stop.error }
            throw error
        }
        if let stop = stopped.withLock({ $0 }) { throw stop.error }
        if answer.0.count > limits.maximumResponseSize {
            throw Stop.tooLarge(Int64(limits.maximumResponseSize)).error
        }
        return answer
    }

    /// Stops watching a task that ended. (The timer runs on for a second after the last one, so
    /// that back-to-back requests do not each make a timer.)
    func end(_ id: UInt64) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// The bytes a task received or announced. Apple's URLSession counts them as they arrive;
    /// swift-corelibs-foundation does not (always 0) and each read waits on its work queue, so on
    /// Linux the count is not read at all: there the sessions the client owns stop an answer
    /// over the limit themselves (`DelegatedTransfer`).
    private static func bytes(of task: URLSessionTask) -> Int64 {
        #if canImport(FoundationNetworking)
        return 0
        #else
        return max(task.countOfBytesReceived, task.countOfBytesExpectedToReceive)
        #endif
    }

    private func check() {
        let now = DispatchTime.now().uptimeNanoseconds
        let idle = state.withLock { state -> DispatchSourceTimer? in
            guard state.entries.isEmpty else {
                state.idleChecks = 0
                return nil
            }
            state.idleChecks += 1
            guard state.idleChecks >= 10, let timer = state.timer else { return nil }
            state.timer = nil
            state.idleChecks = 0
            return timer
        }
        if let idle {
            idle.cancel()
            return
        }
        let passed = state.withLock { state -> [(Entry, Stop)] in
            var passed: [(Entry, Stop)] = []
            for (id, entry) in state.entries {
                let maximumBytes = Int64(entry.limits.maximumResponseSize)
                if (entry.received?() ?? 0) > maximumBytes {
                    passed.append((entry, .tooLarge(maximumBytes)))
                } else if now >= entry.deadline {
                    passed.append((entry, .deadline(entry.limits.deadline)))
                } else {
                    continue
                }
                state.entries[id] = nil
            }
            return passed
        }
        for (entry, stop) in passed {
            entry.stop(stop)
            entry.cancel()
        }
    }

    /// A URLSession task, which is thread-safe but not declared `Sendable` on every platform.
    // @unchecked Sendable: URLSessionTask's methods and properties are safe from any thread.
    struct UncheckedTask: @unchecked Sendable {
        let task: URLSessionTask
    }
}

extension TransferWatch.Stop {
    /// The error a stopped request throws.
    var error: URLError { error(see: nil) }

    /// The error a stopped request throws, naming `setting` (a transport's own limit) rather than
    /// the client's configuration when it is given.
    func error(see setting: String?) -> URLError {
        switch self {
        case .deadline(let seconds):
            return URLError(
                .timedOut,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No whole answer within the deadline of \(Self.seconds(seconds)): the server did not "
                        + "answer, or sent the answer too slowly; see \(setting ?? "IPDataClient.Configuration.deadline")."
                ])
        case .tooLarge(let bytes):
            return URLError(
                .dataLengthExceedsMaximum,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The answer was larger than \(Self.size(bytes)), which no answer of the API is; see "
                        + "\(setting ?? "IPDataClient.Configuration.maximumResponseSize")."
                ])
        }
    }

    private static func size(_ bytes: Int64) -> String {
        bytes >= 1_048_576 && bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
