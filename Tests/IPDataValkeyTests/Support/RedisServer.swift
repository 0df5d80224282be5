// Starts redis-server with Process, which only macOS and Linux have: on iOS, tvOS, watchOS and
// visionOS this test target builds empty.
#if Valkey && (os(macOS) || os(Linux))
import Foundation
import IPDataLibC
import XCTest

/// A real `redis-server` (Debian package `redis-server`, which `.ci/run` installs) that a test
/// starts on loopback on a free port, with no persistence, and can stop and start again on the
/// same port.
final class RedisServer {
    let port: Int
    private let executable: String
    private var process: Process?

    /// A server not yet started; skips the test without `redis-server`, and fails it when
    /// `IPDATA_INTEGRATION_REQUIRED=1`.
    init() throws {
        let environment = ProcessInfo.processInfo.environment
        let candidates =
            (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/redis-server" }
            + ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/opt/homebrew/bin/redis-server"]
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            let reason = "no redis-server: install it (apt-get install redis-server) to test ValkeyLookupStore"
            if environment["IPDATA_INTEGRATION_REQUIRED"] == "1" { XCTFail(reason) }
            throw XCTSkip(reason)
        }
        self.executable = executable
        self.port = try LoopbackSocket.freePort()
    }

    deinit { stop() }

    /// A server, started.
    static func started() throws -> RedisServer {
        let server = try RedisServer()
        try server.start()
        return server
    }

    /// Starts the server and returns once it accepts connections.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--bind", "127.0.0.1", "--port", "\(port)", "--save", "", "--appendonly", "no", "--protected-mode", "yes",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while !LoopbackSocket.accepts(port: port) {
            guard Date() < deadline, process.isRunning else {
                throw XCTSkip("redis-server did not start on port \(port)")
            }
            usleep(20_000)
        }
    }

    /// Stops the server at once, as a crash would (its data goes with it), and waits until it
    /// has exited. SIGKILL: a process started from a Dispatch thread inherits its blocked
    /// signals, SIGTERM among them.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }
}

/// A TCP listener on 127.0.0.1 that stands for a broken server: it accepts connections and
/// never answers, or answers anything with bytes that are not a Valkey reply.
final class BrokenServer: @unchecked Sendable {
    // @unchecked Sendable: `descriptors` is only touched under `lock`; the rest is immutable.
    enum Behaviour {
        case silent
        case garbage
    }

    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var descriptors: [Int32] = []
    private var isStopped = false

    init(_ behaviour: Behaviour) throws {
        (listener, port) = try LoopbackSocket.openListener()
        let thread = Thread { [self] in acceptLoop(behaviour) }
        thread.start()
    }

    deinit { stop() }

    func stop() {
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
                let reply = Array("@@ not a valkey reply \u{1}\u{2}\r\n".utf8)
                _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                while read(connection, &buffer, buffer.count) > 0 {
                    _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                }
            }.start()
        }
    }
}

/// Plain POSIX sockets on 127.0.0.1.
enum LoopbackSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func streamSocket() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// A listening socket on a port the system chose, and that port.
    static func openListener() throws -> (Int32, Int) {
        let descriptor = streamSocket()
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 64) == 0 else {
            throw Failure(description: "cannot listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing listens on now (one the system just handed out and took back).
    static func freePort() throws -> Int {
        let (descriptor, port) = try openListener()
        close(descriptor)
        return port
    }

    /// Whether something accepts connections on `port`.
    static func accepts(port: Int) -> Bool {
        let descriptor = streamSocket()
        defer { close(descriptor) }
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
#endif
