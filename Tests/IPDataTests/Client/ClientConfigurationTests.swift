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

    /// The contract's initialisers are conveniences over the configuration: the same client.
    /// (1.1.0's others, now deprecated, are pinned in Compatibility110Tests.)
    /// A store and an observer in the initialiser: a lookup reads the store, and the observer
    /// hears of it.
    func testAStoreAndAnObserverCanBeGivenToTheInitialiser() async throws {
        final class Store: LookupCacheStore, @unchecked Sendable {
            // @unchecked Sendable: `reads` is only touched under `lock`.
            private let lock = NSLock()
            private var reads = 0
            var count: Int { lock.withLock { reads } }
            func entry(for key: LookupCacheKey) async -> LookupCacheEntry? {
                lock.withLock { reads += 1 }
                return LookupCacheEntry(json: Data(#"{"ip": "8.8.8.8", "city": "Stored"}"#.utf8))
            }
            func store(_ entry: LookupCacheEntry, for key: LookupCacheKey) async {}
        }
        final class Reads: IPDataObserver, @unchecked Sendable {
            // @unchecked Sendable: `tiers` is only touched under `lock`.
            private let lock = NSLock()
            private var tiers: [IPDataCacheRead.Tier] = []
            var all: [IPDataCacheRead.Tier] { lock.withLock { tiers } }
            func cacheRead(_ read: IPDataCacheRead) { lock.withLock { tiers.append(read.tier) } }
        }
        let store = Store()
        let reads = Reads()
        let configuration = IPDataClient.Configuration(
            connection: .transport(StubTransport()), cacheStore: store, observer: reads)
        let answer = try await IPDataClient(apiKey: "test-key", configuration: configuration).lookup("8.8.8.8")
        XCTAssertEqual(answer.city, "Stored")
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(reads.all, [.store])
        XCTAssertNil(IPDataClient.Configuration(cacheStore: nil).cacheStore)
    }

    func testEveryEarlierInitialiserStandsForAConfiguration() {
        let session = MockURLProtocol.makeSession()
        let bySession = IPDataClient(apiKey: "k", baseURL: IPDataClient.euBaseURL, session: session)
        XCTAssertTrue(bySession.session === session)
        XCTAssertEqual(bySession.baseURL, IPDataClient.euBaseURL)
        XCTAssertNil(bySession.cache)
        XCTAssertEqual(bySession.retryPolicy, .default)

        let owned = IPDataClient(apiKey: "k", configuration: URLSessionConfiguration.ephemeral)
        XCTAssertNotNil(owned.ownedSessionDelegate)
        XCTAssertNil(owned.cache)
    }

    /// `configuration: .init()` is the default `Configuration` (the shared session), not an owned
    /// session made from `URLSessionConfiguration()`: no sample needs to warn about it.
    func testABareInitIsTheDefaultConfiguration() {
        let client = IPDataClient(apiKey: "k", configuration: .init())
        XCTAssertTrue(client.session === URLSession.shared)
        XCTAssertNil(client.ownedSessionDelegate)
        XCTAssertEqual(client.baseURL, IPDataClient.defaultBaseURL)
        XCTAssertNil(client.cache)
        XCTAssertEqual(client.retryPolicy, .default)
    }

    /// The `URLSessionConfiguration` initialiser is still what its own spellings mean.
    func testAURLSessionConfigurationStillMakesAnOwnedSession() {
        XCTAssertNotNil(IPDataClient(apiKey: "k", configuration: .ephemeral).ownedSessionDelegate)
        XCTAssertNotNil(IPDataClient(apiKey: "k", configuration: .default).ownedSessionDelegate)
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 7
        let owned = IPDataClient(apiKey: "k", baseURL: IPDataClient.euBaseURL, configuration: configuration)
        XCTAssertEqual(owned.session?.configuration.timeoutIntervalForRequest, 7)
        XCTAssertEqual(owned.baseURL, IPDataClient.euBaseURL)
    }
}
