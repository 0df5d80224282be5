import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The initialisers that 1.1.0 added besides `init(apiKey:configuration:)`: deprecated, and still
/// making the client their `Configuration` spelling makes. Each test is marked deprecated itself,
/// because it calls them on purpose; nothing is silenced for the rest of the package.
final class Compatibility110Tests: MockedClientTestCase {
    @available(*, deprecated, message: "pins a deprecated initialiser")
    func testTheSessionAndCacheInitialiserStandsForItsConfiguration() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let session = MockURLProtocol.makeSession()
        let cache = LookupCache()
        let client = IPDataClient(apiKey: "k", baseURL: IPDataClient.euBaseURL, session: session, cache: cache)
        XCTAssertTrue(client.session === session)
        XCTAssertEqual(client.baseURL, IPDataClient.euBaseURL)
        XCTAssertTrue(client.cache === cache)
        XCTAssertEqual(client.retryPolicy, .default)
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(try onlyRequest().url.host, "eu-api.ipdata.co", "the second lookup came from the cache")
    }

    @available(*, deprecated, message: "pins a deprecated initialiser")
    func testTheSessionAndCacheInitialiserDefaultsToTheSharedSession() {
        let cache = LookupCache()
        let client = IPDataClient(apiKey: "k", cache: cache)
        XCTAssertTrue(client.session === URLSession.shared)
        XCTAssertEqual(client.baseURL, IPDataClient.defaultBaseURL)
        XCTAssertTrue(client.cache === cache)
    }

    @available(*, deprecated, message: "pins a deprecated initialiser")
    func testTheURLSessionConfigurationAndCacheInitialiserStandsForItsConfiguration() {
        let cache = LookupCache()
        let configuration = MockURLProtocol.configuration()
        configuration.timeoutIntervalForRequest = 7
        let client = IPDataClient(
            apiKey: "k", baseURL: IPDataClient.euBaseURL, configuration: configuration, cache: cache)
        XCTAssertNotNil(client.ownedSessionDelegate, "the client owns its session")
        XCTAssertEqual(client.session?.configuration.timeoutIntervalForRequest, 7)
        XCTAssertEqual(client.baseURL, IPDataClient.euBaseURL)
        XCTAssertTrue(client.cache === cache)
        XCTAssertNil(IPDataClient(apiKey: "k", configuration: .ephemeral, cache: cache).session?.configuration.urlCache)
    }

    @available(*, deprecated, message: "pins a deprecated initialiser")
    func testTheTransportInitialiserStandsForItsConfiguration() {
        let transport = StubTransport()
        let client = IPDataClient(apiKey: "k", transport: transport)
        XCTAssertTrue(client.transport as? StubTransport === transport)
        XCTAssertEqual(client.baseURL, IPDataClient.defaultBaseURL)
        XCTAssertNil(client.cache)

        let cache = LookupCache()
        let cached = IPDataClient(apiKey: "k", baseURL: IPDataClient.euBaseURL, transport: transport, cache: cache)
        XCTAssertTrue(cached.transport as? StubTransport === transport)
        XCTAssertEqual(cached.baseURL, IPDataClient.euBaseURL)
        XCTAssertTrue(cached.cache === cache)
    }
}
