import Foundation

/// A value guarded by a lock, for state that tasks and URLSession's threads share: the one way
/// this module guards shared mutable state (the client and its lookups).
///
/// It is `Sendable` only when `Value` is, as SwiftNIO's `NIOLockedValueBox`: a lock makes access
/// exclusive, but cannot make a non-`Sendable` value safe to hand to another thread.
final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; what `body` returns leaves the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// @unchecked Sendable: `value` is only read and written inside `withLock`, under `lock`.
extension Locked: @unchecked Sendable where Value: Sendable {}
