import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking

/// The delegate queue of a session the client owns, on Linux: it runs each delegate call at once,
/// on the thread that hands it over, instead of queueing it.
///
/// swift-corelibs-foundation hands each block of a body that libcurl receives to the delegate
/// queue and reads on without waiting. A serial `OperationQueue` drains those calls more slowly
/// than a fast server fills it, so the blocks pile up in the queue, and the delegate's cancel of
/// an answer past the size limit comes only after the pile: memory grows with the server's speed.
/// Run in place, on URLSession's work queue, each block reaches the transfer as it arrives, the
/// cancel follows the block that passed the limit, and what arrives before it takes effect is
/// dropped (`DelegatedTransfer`).
///
/// This is safe because every delegate call of the owned session is short and never waits for
/// URLSession's work queue, on which it now runs: the completion handlers hand their work to that
/// queue asynchronously, except a challenge's, whose refusal cancels the task; `cancel()` waits
/// for that queue (up to Swift 6.3 at least), so it and the challenge's answer are sent to another
/// queue; nothing calls `suspend()` or `resume()`.
// @unchecked Sendable: OperationQueue is thread-safe; this subclass adds no state.
final class ImmediateDelegateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
#endif
