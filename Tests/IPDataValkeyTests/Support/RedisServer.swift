// Starts redis-server with Process, which only macOS and Linux have: on iOS, tvOS, watchOS and
// visionOS this test target builds empty.
#if Valkey && (os(macOS) || os(Linux))
import Foundation
import IPDataLibC
import IPDataTestSupport
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
#endif
