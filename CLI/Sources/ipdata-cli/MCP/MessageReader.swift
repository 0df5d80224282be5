import CLILibC
import Foundation

/// Reads MCP's stdio transport: lines of a file descriptor (standard input), each handed on
/// without its `\n` as soon as it is complete, on a thread of its own so that the blocking reads
/// take no thread of Swift's concurrency pool. Memory stays bounded: a line longer than
/// `maximumLineBytes` is skipped to its end and reported, never kept.
struct MessageReader: Sendable {
    let fileDescriptor: Int32
    let maximumLineBytes: Int

    /// Reads until the end of input (or a read error), on a thread of its own; returns then.
    func run(
        line: @escaping @Sendable (Data) -> Void, oversized: @escaping @Sendable () -> Void
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                readAll(line: line, oversized: oversized)
                continuation.resume()
            }
            thread.name = "ipdata mcp: standard input"
            thread.start()
        }
    }

    /// Reads until the end of input on the calling thread.
    func readAll(line: (Data) -> Void, oversized: () -> Void) {
        var pending = Data()
        var skipping = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            while start < count {
                let end = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n"))
                let piece = buffer[start..<(end ?? count)]
                if !skipping {
                    if pending.count + piece.count > maximumLineBytes {
                        skipping = true
                        pending = Data()
                        oversized()
                    } else {
                        pending.append(contentsOf: piece)
                    }
                }
                guard let end else { break }
                if !skipping { line(pending) }
                skipping = false
                pending.removeAll(keepingCapacity: true)
                start = end + 1
            }
        }
        if !skipping, !pending.isEmpty { line(pending) }
    }
}
