import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// At most `maximumConcurrentRequests` requests in flight; the others wait in the client.
final class RequestSlotsTests: XCTestCase {
    /// A transport that holds every request until the test lets it go, and answers a lookup.
    private func holdingTransport() -> StubTransport {
        StubTransport(otherwise: .status(200, body: #"{"ip":"8.8.8.8"}"#), holding: true)
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
    }

    func testNoMoreThanTheLimitAreInFlightAndTheRestAllEnd() async throws {
        let transport = holdingTransport()
        let client = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(connection: .transport(transport), maximumConcurrentRequests: 4))
        let lookups = (0..<50).map { index in Task { try await client.lookup("9.9.9.\(index)") } }
        try await waitUntil { transport.held == 4 }
        try await Task.sleep(nanoseconds: 50_000_000)
        XCTAssertEqual(transport.held, 4, "the other 46 wait in the client")
        let releaser = Task {
            while !Task.isCancelled {
                transport.releaseHeld()
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        var answered = 0
        for lookup in lookups {
            _ = try await lookup.value
            answered += 1
        }
        releaser.cancel()
        XCTAssertEqual(answered, 50)
        XCTAssertEqual(transport.mostInFlight, 4)
    }

    func testACallCancelledWhileItWaitsForASlotEndsAtOnce() async throws {
        let transport = holdingTransport()
        let client = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(connection: .transport(transport), maximumConcurrentRequests: 1))
        let first = Task { try await client.lookup("8.8.8.8") }
        try await waitUntil { transport.held == 1 }
        let waiting = Task { try await client.lookup("1.1.1.1") }
        try await Task.sleep(nanoseconds: 20_000_000)
        waiting.cancel()
        do {
            _ = try await waiting.value
            XCTFail("a cancelled call returned a lookup")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertEqual(underlying.code, .cancelled)
        }
        XCTAssertEqual(transport.held, 1, "the cancelled call never reached the transport")
        transport.releaseHeld()
        _ = try await first.value
        // Its slot was not lost: the next call goes through.
        let next = Task { try await client.lookup("9.9.9.9") }
        try await waitUntil { transport.held == 1 }
        transport.releaseHeld()
        _ = try await next.value
    }

    /// A request never waits inside URLSession, whose queue for a connection is not first-come on
    /// Linux: a session the client owns opens as many connections a host as the client has
    /// requests in flight, and over a session of the caller's the client has no more in flight
    /// than that session opens connections.
    func testTheLimitNeverExceedsTheConnectionsASessionOpens() throws {
        let narrow = URLSessionConfiguration.ephemeral
        narrow.httpMaximumConnectionsPerHost = 3
        let session = URLSession(configuration: narrow)
        defer { session.finishTasksAndInvalidate() }

        let overTheirSession = IPDataClient(
            apiKey: "k", configuration: .init(connection: .session(session), maximumConcurrentRequests: 16))
        XCTAssertEqual(overTheirSession.slots.limit, 3)
        let fewerThanItOpens = IPDataClient(
            apiKey: "k", configuration: .init(connection: .session(session), maximumConcurrentRequests: 2))
        XCTAssertEqual(fewerThanItOpens.slots.limit, 2)

        let shared = IPDataClient(apiKey: "k")
        XCTAssertEqual(
            shared.slots.limit, min(16, URLSession.shared.configuration.httpMaximumConnectionsPerHost))

        let owned = IPDataClient(
            apiKey: "k", configuration: .init(connection: .owned(narrow), maximumConcurrentRequests: 16))
        XCTAssertEqual(owned.slots.limit, 16)
        let ownedSession = try XCTUnwrap(owned.transport as? URLSessionTransport).session
        XCTAssertEqual(ownedSession.configuration.httpMaximumConnectionsPerHost, 16)
        XCTAssertEqual(narrow.httpMaximumConnectionsPerHost, 3, "the caller's configuration is left as it was")

        let wide = URLSessionConfiguration.ephemeral
        wide.httpMaximumConnectionsPerHost = 40
        let ownedWide = IPDataClient(
            apiKey: "k", configuration: .init(connection: .owned(wide), maximumConcurrentRequests: 16))
        XCTAssertEqual(ownedWide.slots.limit, 16)
        XCTAssertEqual(
            try XCTUnwrap(ownedWide.transport as? URLSessionTransport).session.configuration
                .httpMaximumConnectionsPerHost, 40, "a higher limit is kept")

        let custom = IPDataClient(
            apiKey: "k",
            configuration: .init(connection: .transport(holdingTransport()), maximumConcurrentRequests: 16))
        XCTAssertEqual(custom.slots.limit, 16, "a transport of your own carries what it is given")
    }
}

/// The limit moves while requests wait (see `ConnectionProtocolWatch`).
final class RequestSlotsLimitTests: XCTestCase {
    private actor Counter {
        var value = 0
        func increment() { value += 1 }
    }

    private func waitUntil(_ condition: () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while await !condition(), Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
    }

    func testARaisedLimitLetsWaitersGoAndALoweredOneHoldsNewRequests() async throws {
        let slots = RequestSlots(limit: 2)
        let acquired = Counter()
        for _ in 0..<2 { try await slots.acquire() }
        let waiting = (0..<4).map { _ in
            Task {
                try await slots.acquire()
                await acquired.increment()
            }
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        var count = await acquired.value
        XCTAssertEqual(count, 0, "no room at limit 2")

        slots.setLimit(4)
        try await waitUntil { await acquired.value == 2 }
        try await Task.sleep(nanoseconds: 20_000_000)
        count = await acquired.value
        XCTAssertEqual(count, 2, "two more at limit 4")

        slots.setLimit(1)
        for _ in 0..<3 { slots.release() }
        try await Task.sleep(nanoseconds: 20_000_000)
        count = await acquired.value
        XCTAssertEqual(count, 2, "one still in flight at limit 1: nothing more goes")
        slots.release()
        try await waitUntil { await acquired.value == 3 }
        try await Task.sleep(nanoseconds: 20_000_000)
        count = await acquired.value
        XCTAssertEqual(count, 3, "one at a time at limit 1")
        slots.release()
        for task in waiting { try await task.value }
        XCTAssertEqual(slots.limit, 1)
    }
}
