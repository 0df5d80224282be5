import CLILibC
import Foundation

/// Writes MCP's messages to a file descriptor (standard output), each one whole line under a
/// lock, so that answers of calls that end at once never interleave. After a failed write (the
/// client went away) it writes nothing more.
final class MessageWriter: Sendable {
    let fileDescriptor: Int32
    /// Whether writes still go out.
    private let isOpen = Locked(true)

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes `line` and a `\n`.
    func send(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        isOpen.withLock { isOpen in
            guard isOpen else { return }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { raw in
                    write(fileDescriptor, raw.baseAddress! + written, raw.count - written)
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    isOpen = false
                    return
                }
                written += count
            }
        }
    }
}
