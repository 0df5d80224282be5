import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Over a session the client does not own, as many requests in flight as the session opens
/// connections until an answer shows HTTP/2; then `maximumConcurrentRequests`, until an answer
/// shows HTTP/1.1.
final class ConnectionProtocolWatchTests: MockedClientTestCase {
    private let url = URL(string: "https://api.ipdata.co/8.8.8.8")!

    private func response(_ headers: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers)!
    }

    func testOnlyTheHeadersOfAnHTTP1ConnectionShowHTTP1() {
        let http1: [[String: String]] = [
            ["Connection": "keep-alive", "Content-Type": "application/json"],
            ["connection": "close"],
            ["Keep-Alive": "timeout=5"],
            ["Transfer-Encoding": "chunked"],
            ["TRANSFER-ENCODING": "chunked"],
            ["Proxy-Connection": "keep-alive"],
        ]
        for headers in http1 {
            XCTAssertTrue(ConnectionProtocolWatch.showsHTTP1(response(headers)), "\(headers)")
        }
        let http2: [[String: String]] = [
            [:],
            ["Content-Type": "application/json", "Content-Length": "12", "Server": "nginx", "Date": "x"],
            ["content-type": "application/json", "x-connection": "keep-alive"],
            ["Connections": "2", "Keep-Alive-Ish": "1", "Transfer-Encodings": "x"],
        ]
        for headers in http2 {
            XCTAssertFalse(ConnectionProtocolWatch.showsHTTP1(response(headers)), "\(headers)")
        }
    }

    func testAnHTTP2AnswerRaisesTheLimitAndAnHTTP1AnswerLowersItForGood() {
        let slots = RequestSlots(limit: 6)
        let watch = ConnectionProtocolWatch(slots: slots, connectionLimit: 6, multiplexedLimit: 16)
        watch.observe(response(["Content-Type": "application/json"]))
        XCTAssertEqual(slots.limit, 16)
        watch.observe(response(["Content-Type": "application/json"]))
        XCTAssertEqual(slots.limit, 16)
        watch.observe(response(["Connection": "keep-alive"]))
        XCTAssertEqual(slots.limit, 6)
        watch.observe(response(["Content-Type": "application/json"]))
        XCTAssertEqual(slots.limit, 6, "a server that showed HTTP/1.1 once is not trusted with more again")
    }

    func testAnHTTP1AnswerFirstKeepsTheConnectionLimit() {
        let slots = RequestSlots(limit: 6)
        let watch = ConnectionProtocolWatch(slots: slots, connectionLimit: 6, multiplexedLimit: 16)
        watch.observe(response(["Transfer-Encoding": "chunked"]))
        watch.observe(response([:]))
        XCTAssertEqual(slots.limit, 6)
    }

    func testThroughAnInjectedSessionTheAnswersSetTheClientsLimit() async throws {
        let session = MockURLProtocol.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let connections = session.configuration.httpMaximumConnectionsPerHost
        let client = IPDataClient(
            apiKey: Self.apiKey, configuration: .init(connection: .session(session), maximumConcurrentRequests: 16))
        XCTAssertEqual(client.slots.limit, min(16, connections), "before any answer")

        MockURLProtocol.respond(body: Data(#"{"ip":"8.8.8.8"}"#.utf8), headers: ["Content-Type": "application/json"])
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(client.slots.limit, 16, "an answer over HTTP/2")

        MockURLProtocol.respond(body: Data(#"{"ip":"8.8.8.8"}"#.utf8), headers: ["Connection": "keep-alive"])
        _ = try await client.lookup("8.8.4.4")
        XCTAssertEqual(client.slots.limit, connections, "an answer over HTTP/1.1")
    }

    func testASessionOfTheClientsOwnOrACustomTransportIsNotWatched() throws {
        let owned = IPDataClient(
            apiKey: "k", configuration: .init(connection: .owned(.ephemeral), maximumConcurrentRequests: 16))
        XCTAssertNil(try XCTUnwrap(owned.transport as? URLSessionTransport).protocolWatch)
        let session = MockURLProtocol.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let fewer = IPDataClient(
            apiKey: "k", configuration: .init(connection: .session(session), maximumConcurrentRequests: 2))
        XCTAssertNil(
            try XCTUnwrap(fewer.transport as? URLSessionTransport).protocolWatch,
            "no more wanted than the session's connections carry")
    }
}
