import Foundation

/// A value that tasks and threads share, read and changed under a lock of its own. (The CLI
/// runs on macOS 12, before `Synchronization.Mutex`.)
final class Locked<Value> {
    private var value: Value
    private let mutex = NSLock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held, and returns what it returns.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }
}

// @unchecked Sendable: `value` is only touched inside `withLock`, with `mutex` held.
extension Locked: @unchecked Sendable where Value: Sendable {}
