import Foundation

/// A value guarded by a lock, for state that tasks and URLSession's threads share.
// @unchecked Sendable: `value` is only read and written inside `withLock`, under `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
