#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import IPData
import IPDataTestSupport
import NIOCore
import NIOPosix
import XCTest

@testable import IPDataAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `AsyncHTTPClientTransport` does without a server. Its guarantees against a server are
/// the integration suite's, which runs through it with `IPDATA_TEST_TRANSPORT=asynchttpclient`
/// (see Tests/IPDataIntegrationTests/Support/TestTransport.swift).
final class AsyncHTTPClientTransportTests: XCTestCase {
    func testAKeyInAnErrorTheTransportBuildsIsRedacted() {
        var request = URLRequest(url: URL(string: "https://127.0.0.1:1/8.8.8.8?api-key=secret-key-123")!)
        request.setValue("secret-key-123", forHTTPHeaderField: "api-key")
        let error = AsyncHTTPClientTransport.urlError(
            for: Echo(text: "failed: \(request.url!.absoluteString)"),
            redaction: AsyncHTTPClientTransport.redaction(for: request))
        XCTAssertFalse(error.localizedDescription.contains("secret-key-123"), error.localizedDescription)
        XCTAssertTrue(error.localizedDescription.contains(KeyRedaction.placeholder), error.localizedDescription)
    }

    /// A server's default: 10 s for a request, not URLSession's 60 (see `timeout`).
    func testTheDefaultTimeoutIsAServers() {
        XCTAssertEqual(AsyncHTTPClientTransport().timeout, 10)
        XCTAssertEqual(AsyncHTTPClientTransport(timeout: 3).timeout, 3)
    }

    /// An `HTTPClient` of the app's, made with `clientConfiguration`, fails a lookup against a
    /// refused connection at once (AsyncHTTPClient's default would try it again for 10 s).
    func testTheRecommendedConfigurationFailsARefusedConnectionAtOnce() async throws {
        let httpClient = HTTPClient(configuration: AsyncHTTPClientTransport.clientConfiguration)
        let port = try LoopbackSocket.freePort()
        let client = IPDataClient(
            apiKey: "test-key",
            configuration: .init(
                baseURL: URL(string: "https://127.0.0.1:\(port)")!,
                connection: .transport(AsyncHTTPClientTransport(client: httpClient))))
        let start = ContinuousClock.now
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("a lookup through a refused connection")
        } catch let error as IPDataError {
            guard case .networkError(let underlying as URLError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(underlying.code, .cannotConnectToHost)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
        try await httpClient.shutdown()
    }

    /// A failure reads as one line in plain words, naming the server by its origin: no SwiftNIO
    /// or BoringSSL dump, no URL, no key.
    func testAFailureReadsAsOneLineNamingTheServer() {
        let redaction = KeyRedaction(apiKeys: ["secret-key-123"])
        let server = "https://127.0.0.1:9"
        let message = {
            AsyncHTTPClientTransport.urlError(for: $0, redaction: redaction, server: server).localizedDescription
        }
        XCTAssertEqual(
            message(IOError(errnoCode: ECONNREFUSED, reason: "connect")),
            "Could not connect to https://127.0.0.1:9: connection refused.")
        XCTAssertEqual(
            message(IOError(errnoCode: ECONNRESET, reason: "read")),
            "The connection to https://127.0.0.1:9 was lost: connection reset by peer.")
        XCTAssertEqual(message(HTTPClientError.readTimeout), "The request to https://127.0.0.1:9 timed out.")
        XCTAssertEqual(message(CancellationError()), "The request was cancelled.")
        let other = message(Echo(text: "odd\nanswer for https://127.0.0.1:9/8.8.8.8?api-key=secret-key-123"))
        XCTAssertEqual(other.split(whereSeparator: \.isNewline).count, 1, other)
        XCTAssertTrue(other.hasPrefix("The exchange with https://127.0.0.1:9 failed: odd answer for "), other)
        XCTAssertFalse(other.contains("secret-key-123"), other)
    }

    /// The size error names the setting to change: the smaller limit's, or both when they are equal.
    func testTheSizeErrorNamesTheLimitThatStoppedTheAnswer() {
        let transport = AsyncHTTPClientTransport(maximumResponseSize: 1_000)
        let limits = { IPDataTransportLimits(deadline: 60, maximumResponseSize: $0) }
        XCTAssertEqual(transport.sizeSetting(limits(2_000)), "AsyncHTTPClientTransport.maximumResponseSize")
        XCTAssertNil(transport.sizeSetting(limits(500)), "the client's own words")
        XCTAssertEqual(
            transport.sizeSetting(limits(1_000)),
            "IPDataClient.Configuration.maximumResponseSize and AsyncHTTPClientTransport.maximumResponseSize")
    }

    /// A deadline of any size is a time NIO can hold: none overflows, none is negative.
    func testAnyDeadlineIsATimeAmount() {
        XCTAssertEqual(AsyncHTTPClientTransport.timeAmount(1.5), .milliseconds(1_500))
        XCTAssertEqual(AsyncHTTPClientTransport.timeAmount(-1), .nanoseconds(0))
        XCTAssertEqual(AsyncHTTPClientTransport.timeAmount(.infinity), .seconds(1_000_000_000))
        XCTAssertEqual(AsyncHTTPClientTransport.timeAmount(.greatestFiniteMagnitude), .seconds(1_000_000_000))
    }

    /// The transport's event loop is one of its client's group. A group that hands out a loop it
    /// does not list gets none (AsyncHTTPClient would stop the process on such a loop).
    func testTheTransportsEventLoopIsOneTheClientsGroupLists() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { try? group.syncShutdownGracefully() }
        let listed = group.makeIterator().map { ObjectIdentifier($0) }
        let client = HTTPClient(eventLoopGroup: group)
        defer { try? client.syncShutdown() }
        let loop = try XCTUnwrap(AsyncHTTPClientTransport(client: client).eventLoop)
        XCTAssertTrue(listed.contains(ObjectIdentifier(loop)))

        let lying = HTTPClient(eventLoopGroup: UnlistedLoopGroup(group))
        defer { try? lying.syncShutdown() }
        XCTAssertNil(AsyncHTTPClientTransport(client: lying).eventLoop)
    }

    /// A group whose `any()` is a loop its iterator leaves out.
    private final class UnlistedLoopGroup: EventLoopGroup, Sendable {
        private let loops: [any EventLoop]
        init(_ group: MultiThreadedEventLoopGroup) { loops = Array(group.makeIterator()) }
        func next() -> any EventLoop { loops[0] }
        func any() -> any EventLoop { loops[1] }
        func makeIterator() -> EventLoopIterator { EventLoopIterator([loops[0]]) }
        func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable ((any Error)?) -> Void) {
            queue.async { callback(nil) }
        }
    }

    private struct Echo: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }
}
#endif
