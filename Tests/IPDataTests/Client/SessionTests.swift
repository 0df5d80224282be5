import Foundation
import IPDataTestSupport
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which URLSession carries the requests, and who owns and invalidates it.
final class SessionTests: MockedClientTestCase {
    func testLookupsOfEveryKindGoThroughTheInjectedSession() async throws {
        let lookup = try Fixture.data(Fixture.googleLookup)
        let bulk = try Fixture.data(Fixture.bulkPair)
        let asn = try Fixture.data(Fixture.asnDetail)
        MockURLProtocol.stub { request, _ in
            if request.url.path == "/bulk" { return .http(status: 200, body: bulk, headers: [:]) }
            if request.url.path == "/AS15169" { return .http(status: 200, body: asn, headers: [:]) }
            return .http(status: 200, body: lookup, headers: [:])
        }
        _ = try await client.lookup()
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookup("8.8.8.8", fields: ["ip"])
        _ = try await client.lookupField("8.8.8.8", field: "asn")
        _ = try await client.bulkLookup(["8.8.8.8", "1.1.1.1"])
        _ = try await client.lookupASN("AS15169")
        XCTAssertEqual(
            sent.map(\.url.path), ["/", "/8.8.8.8", "/8.8.8.8", "/8.8.8.8/asn", "/bulk", "/AS15169"])
    }

    func testDefaultSessionIsTheSharedSession() {
        let client = IPDataClient(apiKey: Self.apiKey)
        XCTAssertTrue(client.session === URLSession.shared)
        XCTAssertNil(client.ownedSessionDelegate, "a client never owns URLSession.shared")
    }

    /// Every request URL carries the key: an owned session has no cache to keep it in, on any
    /// platform, and the caller's configuration keeps its own.
    func testAnOwnedSessionHasNoURLCache() throws {
        let configuration = URLSessionConfiguration.default
        let cache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        configuration.urlCache = cache
        let client = IPDataClient(apiKey: Self.apiKey, configuration: configuration)
        XCTAssertNil(try XCTUnwrap(client.session).configuration.urlCache)
        XCTAssertTrue(configuration.urlCache === cache, "the caller's configuration is left alone")
    }

    func testConfigurationInitialiserRoutesRequestsThroughItsConfiguration() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let client = IPDataClient(apiKey: Self.apiKey, configuration: MockURLProtocol.configuration())
        let info = try await client.lookup("8.8.8.8")
        XCTAssertEqual(info.city, "Mountain View")
        XCTAssertEqual(try onlyRequest().url.host, "api.ipdata.co")
        XCTAssertFalse(client.session === URLSession.shared)
    }

    func testConfigurationInitialiserHonoursBaseURL() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let client = IPDataClient(
            apiKey: Self.apiKey, baseURL: IPDataClient.euBaseURL, configuration: MockURLProtocol.configuration())
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(try onlyRequest().url.host, "eu-api.ipdata.co")
    }

    func testClientWithOwnedSessionDeallocatesAndInvalidatesItsSession() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let invalidated = expectation(description: "owned session invalidated")
        weak var weakClient: IPDataClient?
        do {
            let client = IPDataClient(apiKey: Self.apiKey, configuration: MockURLProtocol.configuration())
            client.ownedSessionDelegate?.onInvalidation { invalidated.fulfill() }
            _ = try await client.lookup("8.8.8.8")
            weakClient = client
        }
        // The request's task may hold the client for a moment after the call returned.
        for _ in 0..<500 where weakClient != nil { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertNil(weakClient, "the client is released once its last reference goes")
        await fulfillment(of: [invalidated], timeout: 10)
    }

    func testInjectedSessionOutlivesTheClient() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let session = MockURLProtocol.makeSession()
        do {
            let client = IPDataClient(apiKey: Self.apiKey, session: session)
            _ = try await client.lookup("8.8.8.8")
        }
        // A second client on the same session works: the first did not invalidate it.
        let info = try await IPDataClient(apiKey: Self.apiKey, session: session).lookup("8.8.8.8")
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertEqual(sent.count, 2)
    }

    func testClientIsSendableAcrossConcurrentTasks() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let client = try XCTUnwrap(self.client)
        let cities = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<20 { group.addTask { try await client.lookup("8.8.8.\(index)").city } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        XCTAssertEqual(cities, Array(repeating: "Mountain View", count: 20))
        XCTAssertEqual(sent.count, 20)
    }
}
