import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPDataClient(apiKey:configuration:)`: one initialiser that every other one stands for.
final class ClientConfigurationTests: MockedClientTestCase {
    func testTheDefaultsAreTheSharedSessionTheGlobalEndpointNoCacheAndTheContractsRetries() {
        let client = IPDataClient(apiKey: "k", configuration: IPDataClient.Configuration())
        XCTAssertTrue(client.session === URLSession.shared)
        XCTAssertNil(client.ownedSessionDelegate)
        XCTAssertEqual(client.baseURL, IPDataClient.defaultBaseURL)
        XCTAssertNil(client.cache)
        XCTAssertEqual(client.retryPolicy, .default)
    }

    func testASessionIsUsedAsItIs() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let session = MockURLProtocol.makeSession()
        let client = IPDataClient(
            apiKey: "k", configuration: .init(baseURL: IPDataClient.euBaseURL, connection: .session(session)))
        _ = try await client.lookup("8.8.8.8")
        XCTAssertTrue(client.session === session)
        XCTAssertEqual(try onlyRequest().url.host, "eu-api.ipdata.co")
    }

    func testAnOwnedSessionIsMadeFromACopyOfTheConfiguration() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let configuration = MockURLProtocol.configuration()
        let connection = IPDataClient.Connection.owned(configuration)
        configuration.timeoutIntervalForRequest = 1  // after the connection was made: not seen
        let client = IPDataClient(apiKey: "k", configuration: .init(connection: connection))
        _ = try await client.lookup("8.8.8.8")
        XCTAssertNotNil(client.ownedSessionDelegate)
        XCTAssertNotEqual(client.session?.configuration.timeoutIntervalForRequest, 1)
        XCTAssertEqual(sent.count, 1)
    }

    func testACacheAndARetryPolicyAreKept() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let cache = LookupCache()
        let client = IPDataClient(
            apiKey: "k",
            configuration: .init(
                connection: .session(MockURLProtocol.makeSession()), cache: cache, retryPolicy: .recommended))
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(sent.count, 1, "the second lookup came from the cache")
        XCTAssertTrue(client.cache === cache)
        XCTAssertEqual(client.retryPolicy, .recommended)
    }

    /// The older initialisers are conveniences over the configuration: the same client.
    func testEveryEarlierInitialiserStandsForAConfiguration() {
        let session = MockURLProtocol.makeSession()
        let cache = LookupCache()
        let bySession = IPDataClient(apiKey: "k", baseURL: IPDataClient.euBaseURL, session: session, cache: cache)
        XCTAssertTrue(bySession.session === session)
        XCTAssertEqual(bySession.baseURL, IPDataClient.euBaseURL)
        XCTAssertTrue(bySession.cache === cache)
        XCTAssertEqual(bySession.retryPolicy, .default)

        let owned = IPDataClient(apiKey: "k", configuration: URLSessionConfiguration.ephemeral)
        XCTAssertNotNil(owned.ownedSessionDelegate)
        XCTAssertNil(owned.cache)
    }
}
