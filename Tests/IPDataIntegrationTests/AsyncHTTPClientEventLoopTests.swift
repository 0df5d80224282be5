#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import XCTest

@testable import IPData
@testable import IPDataAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where `AsyncHTTPClientTransport`'s requests are handled, against the local server: on one
/// event loop, the one their connection is on, so that no answer is handed to another thread
/// inside AsyncHTTPClient (measured in BENCHMARKS.md; this test holds the arrangement).
final class AsyncHTTPClientEventLoopTests: LocalServerTestCase {
    func testATransportsRequestsRunOnTheEventLoopOfTheirConnection() async throws {
        // Four event loops, so that a request left to AsyncHTTPClient's choice would land on
        // another loop than the transport's three times in four.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 4)
        let loops = Locked<[ObjectIdentifier]>([])
        let record: @Sendable (Channel) -> EventLoopFuture<Void> = { channel in
            loops.withLock { $0.append(ObjectIdentifier(channel.eventLoop)) }
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        var configuration = AsyncHTTPClientTransport.clientConfiguration
        configuration.http1_1ConnectionDebugInitializer = record
        configuration.http2StreamChannelDebugInitializer = record
        let http = HTTPClient(eventLoopGroup: group, configuration: configuration)
        addTeardownBlock {
            try await http.shutdown()
            try await group.shutdownGracefully()
        }
        let transport = AsyncHTTPClientTransport(client: http)
        let client = IPDataClient(
            apiKey: server.key, configuration: .init(baseURL: server.url("NORMAL"), connection: .transport(transport)))

        for index in 1...8 { _ = try await client.lookup("8.8.8.\(index)") }

        let seen = loops.withLock { $0 }
        XCTAssertEqual(seen.count, 8, "one HTTP/2 stream per lookup")
        XCTAssertEqual(Set(seen), [ObjectIdentifier(try XCTUnwrap(transport.eventLoop))])
    }
}
#endif
