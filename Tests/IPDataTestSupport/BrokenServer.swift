import Foundation
import IPDataLibC

/// A TCP listener on 127.0.0.1 that stands for a broken server: it accepts connections and
/// never answers (a TLS client waits for the server's hello), or answers anything with bytes that
/// are not a reply of any protocol.
public final class BrokenServer: @unchecked Sendable {
    // @unchecked Sendable: `descriptors` is only touched under `lock`; the rest is immutable.
    /// What it does with a connection.
    public enum Behaviour: Sendable {
        /// Accepts connections and never writes a byte.
        case silent
        /// Answers whatever it reads with bytes that mean nothing.
        case garbage
    }

    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var descriptors: [Int32] = []
    private var isStopped = false

    /// A listener on a free port, behaving as `behaviour` says from now on.
    public init(_ behaviour: Behaviour) throws {
        (listener, port) = try LoopbackSocket.openListener()
        let thread = Thread { [self] in acceptLoop(behaviour) }
        thread.start()
    }

    deinit { stop() }

    /// Closes the listener and every connection it accepted.
    public func stop() {
        let open = lock.withLock { () -> [Int32] in
            defer { (descriptors, isStopped) = ([], true) }
            return isStopped ? [] : descriptors + [listener]
        }
        for descriptor in open {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
    }

    private func acceptLoop(_ behaviour: Behaviour) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let kept = lock.withLock { () -> Bool in
                guard !isStopped else { return false }
                descriptors.append(connection)
                return true
            }
            guard kept else {
                close(connection)
                return
            }
            guard behaviour == .garbage else { continue }
            Thread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let reply = Array("@@ not a reply \u{1}\u{2}\r\n".utf8)
                _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                while read(connection, &buffer, buffer.count) > 0 {
                    _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                }
            }.start()
        }
    }
}
