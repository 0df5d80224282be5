@testable import IPData

/// `count` addresses, counting how many were read.
struct CountingAddresses: Sequence, Sendable {
    let count: Int
    let pulled: Locked<Int>

    func makeIterator() -> AnyIterator<String> {
        AnyIterator {
            let index = pulled.withLock { read -> Int in
                defer { read += 1 }
                return read
            }
            guard index < count else { return nil }
            return "8.\(index / 65_536).\(index / 256 % 256).\(index % 256)"
        }
    }
}
