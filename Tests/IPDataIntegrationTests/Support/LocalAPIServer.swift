import Foundation
import IPDataTestSupport
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if AsyncHTTPClient
import AsyncHTTPClient
@testable import IPDataAsyncHTTPClient
#endif

/// The local stand-in for the API that `TestServer/start` runs (nginx + a small backend), as its
/// `env` file describes it, and what its logs say happened.
struct LocalAPIServer {
    /// One line of nginx's access log.
    struct AccessEntry: Decodable {
        let mode: String
        let conn: Int
        let connReqs: Int
        let proto: String
        let method: String
        let uri: String
        let status: Int
        /// When nginx finished the request (seconds since 1970) and how long it took.
        let msec: Double
        let requestTime: Double

        enum CodingKeys: String, CodingKey {
            case mode, conn, proto, method, uri, status, msec
            case connReqs = "conn_reqs"
            case requestTime = "request_time"
        }
    }

    /// One line of the backend's log.
    struct BackendEntry: Decodable {
        let mode: String?
        let method: String?
        let path: String?
        let status: Int?
        let bodyLen: Int?
        let dropped: Bool?
        let clientGone: Bool?
        /// Where the request carried an `api-key`: `query`, `header`, both or neither.
        let keyIn: [String]?

        enum CodingKeys: String, CodingKey {
            case mode, method, path, status, dropped
            case bodyLen = "body_len"
            case clientGone = "client_gone"
            case keyIn = "key_in"
        }
    }

    /// Where each log stood at one moment, so a test reads only what came after.
    struct Mark {
        let access: UInt64
        let backend: UInt64
    }

    let environment: [String: String]

    /// The server described by the environment, or a skip (a failure when CI requires it).
    static func fromEnvironment() throws -> LocalAPIServer {
        LocalAPIServer(environment: try localServerEnvironment())
    }

    func url(_ mode: String) -> URL {
        URL(string: environment["IPDATA_TEST_URL_\(mode)"]!)!
    }

    var key: String { environment["IPDATA_TEST_KEY"] ?? "test-key" }

    func mark() -> Mark {
        Mark(access: Self.size(of: accessLog), backend: Self.size(of: backendLog))
    }

    private var accessLog: String { environment["IPDATA_TEST_ACCESS_LOG"]! }
    private var backendLog: String { environment["IPDATA_TEST_BACKEND_LOG"]! }

    /// The access-log entries written since `mark` for which `matching` holds, once there are at
    /// least `count` of them. nginx writes a line as a request ends, which can be a moment after
    /// the client saw the answer, so this waits for them (at most `timeout` seconds).
    func accessEntries(
        since mark: Mark, atLeast count: Int = 1, timeout: TimeInterval = 10,
        matching: (AccessEntry) -> Bool = { _ in true }
    ) async throws -> [AccessEntry] {
        try await waitForEntries(in: accessLog, from: mark.access, atLeast: count, timeout: timeout, matching: matching)
    }

    func backendEntries(
        since mark: Mark, atLeast count: Int = 1, timeout: TimeInterval = 10,
        matching: (BackendEntry) -> Bool = { _ in true }
    ) async throws -> [BackendEntry] {
        try await waitForEntries(
            in: backendLog, from: mark.backend, atLeast: count, timeout: timeout, matching: matching)
    }

    private func waitForEntries<Entry: Decodable>(
        in path: String, from offset: UInt64, atLeast count: Int, timeout: TimeInterval, matching: (Entry) -> Bool
    ) async throws -> [Entry] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let entries = try Self.lines(of: path, from: offset).compactMap {
                try? JSONDecoder().decode(Entry.self, from: Data($0.utf8))
            }.filter(matching)
            if entries.count >= count || Date() > deadline { return entries }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    private static func size(of path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    private static func lines(of path: String, from offset: UInt64) throws -> [String] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let data = try handle.readToEnd() ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// What this process holds open, or nil where the platform has no file to count it from.
enum ProcessResources {
    /// Open descriptors: `/proc/self/fd` on Linux, `/dev/fd` on macOS.
    static var openFileDescriptors: Int? {
        #if os(Linux)
        let folder = "/proc/self/fd"
        #else
        let folder = "/dev/fd"
        #endif
        return (try? FileManager.default.contentsOfDirectory(atPath: folder))?.count
    }

    /// Threads: `/proc/self/task` on Linux; nil elsewhere (Darwin has no such file).
    static var threads: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }
}

/// The API's documented messages, read from the unit tests' fixture files.
enum DocumentedMessage {
    static func of(_ fixture: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("IPDataTests/Fixtures/errors/\(fixture)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: String]
        return try XCTUnwrap(object?["message"], fixture)
    }
}

/// A test case that talks to the local API server, through the transport `IPDATA_TEST_TRANSPORT`
/// names (see `TestTransport`).
class LocalServerTestCase: XCTestCase {
    var server: LocalAPIServer!
    /// The transport under test.
    var transport = TestTransport.urlSession

    override func setUpWithError() throws {
        try super.setUpWithError()
        transport = try TestTransport.fromEnvironment()
        server = try LocalAPIServer.fromEnvironment()
    }

    #if AsyncHTTPClient
    private var httpClient: HTTPClient?

    /// The test's own `HTTPClient`, made on first use with `AsyncHTTPClientTransport.sharedClient`'s
    /// configuration, and shut down after the test.
    var ownHTTPClient: HTTPClient {
        if let httpClient { return httpClient }
        let made = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.clientConfiguration)
        httpClient = made
        addTeardownBlock { try await made.shutdown() }
        return made
    }
    #endif

    /// A configuration for a dedicated session with a short request timeout, so that a test that
    /// goes wrong fails in seconds instead of hanging.
    func configuration(timeout: TimeInterval = 20) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        return configuration
    }

    struct TimeLimitExceeded: Error, CustomStringConvertible {
        let seconds: TimeInterval
        var description: String { "still running after \(seconds) s: cancelled" }
    }

    /// Runs `operation`, cancelling it and throwing `TimeLimitExceeded` after `seconds`, so that
    /// a behaviour that breaks into a hang fails the test instead of stalling the suite.
    func withinTimeLimit<Value: Sendable>(
        _ seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return nil
            }
            defer { group.cancelAll() }
            guard case .some(.some(let value)) = try await group.next() else {
                throw TimeLimitExceeded(seconds: seconds)
            }
            return value
        }
    }

    /// Whether `operation` finishes within `seconds`. Unlike `withinTimeLimit`, this never waits
    /// for an operation that is stuck for good (a deadlock): it leaves it behind.
    func finishes(within seconds: TimeInterval, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
        let outcome = Locked<CheckedContinuation<Bool, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            outcome.withLock { $0 = continuation }
            let finish: @Sendable (Bool) -> Void = { finished in
                outcome.withLock { pending in
                    pending?.resume(returning: finished)
                    pending = nil
                }
            }
            Task {
                await operation()
                finish(true)
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                finish(false)
            }
        }
    }

    /// The `IPDataError` that `operation` throws, or nil when it returns (or throws another error).
    func failure(_ operation: () async throws -> some Any) async -> IPDataError? {
        do {
            _ = try await operation()
            return nil
        } catch {
            return error as? IPDataError
        }
    }

    /// Seconds since `start`.
    func elapsed(since start: Date) -> TimeInterval {
        Date().timeIntervalSince(start)
    }
}
