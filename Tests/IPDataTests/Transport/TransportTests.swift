import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The line between the client and its transport: a transport gets each request as the API
/// defines it, and what URLSession needs on one platform stays in the URLSession transport.
final class TransportTests: MockedClientTestCase {
    /// A transport that records what it is given and answers every request with `body`.
    private final class RecordingTransport: IPDataTransport {
        let requests = Locked<[URLRequest]>([])
        let body: Data

        init(body: Data) { self.body = body }

        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            requests.withLock { $0.append(request) }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: [:])!
            return (body, response)
        }
    }

    private static let apiHeaders = ["api-key", "accept", "user-agent"]

    /// The header names of `request`, in lower case (URLRequest may normalise their case).
    private func headerNames(_ request: URLRequest) -> Set<String> {
        Set((request.allHTTPHeaderFields ?? [:]).keys.map { $0.lowercased() })
    }

    func testACustomTransportGetsExactlyTheAPIsHeadersOnEveryPlatform() async throws {
        let lookup = RecordingTransport(body: try Fixture.data(Fixture.googleLookup))
        _ = try await IPDataClient(apiKey: "k", configuration: .init(connection: .transport(lookup))).lookup("8.8.8.8")
        let get = try XCTUnwrap(lookup.requests.withLock { $0.first })
        XCTAssertEqual(get.httpMethod, "GET")
        XCTAssertEqual(headerNames(get), Set(Self.apiHeaders))

        let bulk = RecordingTransport(body: Data(#"[{"ip":"8.8.8.8"}]"#.utf8))
        _ = try await IPDataClient(apiKey: "k", configuration: .init(connection: .transport(bulk))).bulkLookup([
            "8.8.8.8"
        ])
        let post = try XCTUnwrap(bulk.requests.withLock { $0.first })
        XCTAssertEqual(post.httpMethod, "POST")
        XCTAssertEqual(headerNames(post), Set(Self.apiHeaders + ["content-type"]))
        XCTAssertNil(post.value(forHTTPHeaderField: "Expect"), "no libcurl header for a transport that is not libcurl")
        XCTAssertEqual(post.httpBody, Data(#"["8.8.8.8"]"#.utf8))
    }

    /// On Linux the URLSession transport adds `Expect: 100-continue` to a POST, so that
    /// libcurl's resend over a new connection carries the body (see `URLSessionQuirks`); nowhere else.
    func testTheURLSessionTransportAddsExpectToAPostOnLinuxOnly() async throws {
        MockURLProtocol.respond(body: Data(#"[{"ip":"8.8.8.8"}]"#.utf8))
        _ = try await client.bulkLookup(["8.8.8.8"])
        let expect = try onlyRequest().header("Expect")
        #if canImport(FoundationNetworking)
        XCTAssertEqual(expect, "100-continue")
        #else
        XCTAssertNil(expect)
        #endif
    }

    func testTheURLSessionTransportAddsNothingToAGet() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        _ = try await client.lookup("8.8.8.8")
        XCTAssertNil(try onlyRequest().header("Expect"))
    }

    /// A client over a transport of the caller's uses that transport itself, not a URLSession one.
    func testAClientOverACustomTransportUsesItAsItIs() {
        let transport = RecordingTransport(body: Data())
        let client = IPDataClient(apiKey: "k", configuration: .init(connection: .transport(transport)))
        XCTAssertTrue(client.transport as? RecordingTransport === transport)
        XCTAssertFalse(client.transport is URLSessionTransport)
    }
}
