import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The line between the client and its transport: a transport gets each request as the API
/// defines it, and what URLSession needs on one platform stays in the URLSession transport.
final class TransportTests: MockedClientTestCase {
    private static let apiHeaders = ["api-key", "accept", "user-agent"]

    /// The header names of `request`, in lower case (URLRequest may normalise their case).
    private func headerNames(_ request: URLRequest) -> Set<String> {
        Set((request.allHTTPHeaderFields ?? [:]).keys.map { $0.lowercased() })
    }

    func testACustomTransportGetsExactlyTheAPIsHeadersOnEveryPlatform() async throws {
        let lookup = StubTransport(otherwise: .body(try Fixture.data(Fixture.googleLookup)))
        _ = try await IPDataClient(apiKey: "k", configuration: .init(connection: .transport(lookup))).lookup("8.8.8.8")
        let get = try XCTUnwrap(lookup.requests.first)
        XCTAssertEqual(get.httpMethod, "GET")
        XCTAssertEqual(headerNames(get), Set(Self.apiHeaders))

        let bulk = StubTransport(otherwise: .status(200, body: #"[{"ip":"8.8.8.8"}]"#))
        _ = try await IPDataClient(apiKey: "k", configuration: .init(connection: .transport(bulk))).bulkLookup([
            "8.8.8.8"
        ])
        let post = try XCTUnwrap(bulk.requests.first)
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
        let transport = StubTransport()
        let client = IPDataClient(apiKey: "k", configuration: .init(connection: .transport(transport)))
        XCTAssertTrue(client.transport as? StubTransport === transport)
        XCTAssertFalse(client.transport is URLSessionTransport)
    }
}
