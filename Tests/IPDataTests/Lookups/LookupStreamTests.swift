import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Looking up any number of addresses: chunks, order, failures per address and per request,
/// the single-lookup fallback, the cache, and memory bounded by the window.
final class LookupStreamTests: MockedClientTestCase {

    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { "8.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
    }

    private var bulkRequests: [MockURLProtocol.Recorded] { sent.filter { $0.url.path == "/bulk" } }

    func testResultsArriveInInputOrderFromChunksOfAtMostOneHundred() async throws {
        answerLikeTheAPI()
        let ips = addresses(250)
        let results = try await client.lookupAll(ips)
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(results.compactMap(\.response?.ip), ips)
        let sizes = try bulkRequests.map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: $0.body ?? Data()) as? [String]).count
        }
        XCTAssertEqual(sizes.sorted(), [50, 100, 100])
    }

    func testARejectedAddressFailsOnItsOwn() async throws {
        answerLikeTheAPI()
        let ips = ["8.8.8.8", "10.1.2.3", "bleh", "1.1.1.1"]
        let results = try await client.lookupAll(ips)
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(results[0].response?.ip, "8.8.8.8")
        XCTAssertEqual(results[3].response?.ip, "1.1.1.1")
        guard case .badRequest("10.1.2.3 is a private IP address")? = results[1].error,
            case .badRequest("bleh does not appear to be an IPv4 or IPv6 address")? = results[2].error
        else { return XCTFail("\(results.map(\.result))") }
        XCTAssertFalse(results[1].isRequestFailure)
    }

    func testAFailedRequestFailsItsAddressesAndTheStreamGoesOn() async throws {
        MockURLProtocol.stub { request, attempt in
            if attempt == 1 { return .http(status: 503, body: Data("busy".utf8), headers: [:]) }
            let ips = (try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [String] ?? []
            return .http(
                status: 200, body: (try? JSONSerialization.data(withJSONObject: ips.map { ["ip": $0] })) ?? Data(),
                headers: [:])
        }
        let results = try await client.lookupAll(addresses(200), options: LookupStreamOptions(concurrency: 1))
        XCTAssertEqual(results.filter(\.isRequestFailure).count, 100)
        XCTAssertTrue(
            results.prefix(100).allSatisfy {
                if case .unexpectedStatus(503, "busy")? = $0.error { true } else { false }
            })
        XCTAssertEqual(results.suffix(100).compactMap(\.response).count, 100)
    }

    func testAWholeBulkRequestRefusedWithA400IsARequestFailure() async throws {
        answerLikeTheAPI(bulkStatus: 400, bulkBody: try Fixture.data("errors/400-bulk-invalid-json-array.json"))
        let results = try await client.lookupAll(addresses(3))
        XCTAssertTrue(results.allSatisfy { if case .badRequest? = $0.error { true } else { false } })
        XCTAssertTrue(results.allSatisfy(\.isRequestFailure), "the request failed, not each address")
    }

    func testWhenBulkIsRefusedTheStreamCarriesOnWithSingleLookups() async throws {
        answerLikeTheAPI(bulkStatus: 403, bulkBody: try Fixture.data("errors/403-bulk-requires-paid.json"))
        let ips = addresses(250)
        let results = try await client.lookupAll(ips, options: LookupStreamOptions(concurrency: 2))
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(results.compactMap(\.response?.ip), ips)
        XCTAssertLessThanOrEqual(bulkRequests.count, 2, "at most the first window tried bulk")
        XCTAssertEqual(sent.filter { $0.method == "GET" }.count, 250)
    }

    func testAStreamThatStartsWithSingleLookupsSendsNoBulkRequest() async throws {
        answerLikeTheAPI(bulkStatus: 403, bulkBody: try Fixture.data("errors/403-bulk-requires-paid.json"))
        var options = LookupStreamOptions(concurrency: 2)
        options.startsWithSingleLookups = true
        let ips = addresses(150)
        let results = try await client.lookupAll(ips, options: options)
        XCTAssertEqual(results.compactMap(\.response?.ip), ips)
        XCTAssertEqual(bulkRequests.count, 0, "no request spent on a bulk call the plan refuses")
        XCTAssertEqual(sent.filter { $0.method == "GET" }.count, 150)
    }

    func testAfterTheSwitchEachSingleLookupIsHandedOutAsSoonAsItsTurnComes() async throws {
        // Not a chunk of 100 single lookups one after another before the first result: the
        // window holds `concurrency` single lookups, and the first answer comes out at once.
        answerLikeTheAPI(bulkStatus: 403, bulkBody: try Fixture.data("errors/403-bulk-requires-paid.json"))
        let events = Locked<[LookupStreamEvent]>([])
        var iterator = client.lookupStream(
            addresses(250),
            options: LookupStreamOptions(concurrency: 4, onEvent: { e in events.withLock { $0.append(e) } })
        ).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.ip, "8.0.0.0")
        XCTAssertEqual(first?.response?.ip, "8.0.0.0")
        XCTAssertLessThanOrEqual(sent.filter { $0.method == "GET" }.count, 4, "no more single lookups than the window")
        // The switch is reported before any single lookup goes out.
        let recorded = events.withLock { $0 }
        let switchIndex = recorded.firstIndex { if case .switchedToSingleLookups = $0 { true } else { false } }
        let firstSingle = recorded.firstIndex { if case .requestSent(1) = $0 { true } else { false } }
        XCTAssertLessThan(try XCTUnwrap(switchIndex), try XCTUnwrap(firstSingle))
        var count = 1
        while let result = try await iterator.next() {
            XCTAssertEqual(result.ip, addresses(250)[count])
            count += 1
        }
        XCTAssertEqual(count, 250)
        XCTAssertEqual(sent.filter { $0.method == "GET" }.count, 250)
    }

    func testEventsReportRequestsAndTheSwitchOnce() async throws {
        answerLikeTheAPI(bulkStatus: 403, bulkBody: try Fixture.data("errors/403-bulk-requires-paid.json"))
        let events = Locked<[LookupStreamEvent]>([])
        let options = LookupStreamOptions(concurrency: 2, onEvent: { event in events.withLock { $0.append(event) } })
        _ = try await client.lookupAll(addresses(150), options: options)
        let recorded = events.withLock { $0 }
        let switches = recorded.filter { if case .switchedToSingleLookups = $0 { true } else { false } }
        let sentAddresses = recorded.compactMap { if case .requestSent(let count) = $0 { count } else { nil } }
        XCTAssertEqual(switches.count, 1)
        XCTAssertEqual(sentAddresses.count, sent.count, "one event per request that went out")
        XCTAssertEqual(sentAddresses.filter { $0 == 1 }.count, 150)
    }

    func testTheFallbackCanBeTurnedOff() async throws {
        answerLikeTheAPI(bulkStatus: 403, bulkBody: try Fixture.data("errors/403-bulk-requires-paid.json"))
        let results = try await client.lookupAll(
            addresses(150), options: LookupStreamOptions(fallsBackToSingleLookups: false))
        XCTAssertEqual(results.count, 150)
        XCTAssertTrue(results.allSatisfy { if case .forbidden? = $0.error { true } else { false } })
        XCTAssertTrue(sent.allSatisfy { $0.method == "POST" })
    }

    func testInputIsReadOnlyAsFarAsTheWindowAllows() async throws {
        answerLikeTheAPI()
        let pulled = Locked(0)
        let input = CountingAddresses(count: 2_000, pulled: pulled)
        var iterator = client.lookupStream(input, options: LookupStreamOptions(concurrency: 3)).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.ip, "8.0.0.0")
        // The first chunk is being read out, and the window of 3 is full again: 4 chunks at most.
        XCTAssertLessThanOrEqual(pulled.withLock { $0 }, 4 * 100)
        for _ in 0..<150 { _ = try await iterator.next() }
        XCTAssertLessThanOrEqual(pulled.withLock { $0 }, 5 * 100)
        // Read to the end, so that no request is left in flight when the test ends.
        var count = 151
        while try await iterator.next() != nil { count += 1 }
        XCTAssertEqual(count, 2_000)
    }

    func testAnAsyncSequenceCanBeTheInput() async throws {
        answerLikeTheAPI()
        let ips = addresses(120)
        let input = AsyncStream<String> { continuation in
            for ip in ips { continuation.yield(ip) }
            continuation.finish()
        }
        var seen: [String] = []
        for try await result in client.lookupStream(input) { seen.append(result.ip) }
        XCTAssertEqual(seen, ips)
    }

    func testTheStreamReadsAndFillsTheCache() async throws {
        answerLikeTheAPI()
        let client = IPDataClient(
            apiKey: Self.apiKey,
            configuration: .init(connection: .session(MockURLProtocol.makeSession()), cache: LookupCache()))
        let ips = addresses(150)
        _ = try await client.lookupAll(ips)
        let requestsAfterFirstRun = sent.count
        let again = try await client.lookupAll(ips)
        XCTAssertEqual(again.compactMap(\.response?.ip), ips)
        XCTAssertEqual(sent.count, requestsAfterFirstRun, "every address came from the cache")
    }

    func testStoppingEarlyCancelsTheRequestsInFlight() async throws {
        // Answers the bulk request that carries 8.0.0.0 and holds every other one until it is cancelled.
        let transport = StubTransport { request in
            let ips = (try? JSONSerialization.jsonObject(with: request.httpBody ?? Data())) as? [String] ?? []
            guard ips.first == "8.0.0.0" else { return StubTransport.Reply.status(200, body: "[]").delayed(60) }
            return .body((try? JSONSerialization.data(withJSONObject: ips.map { ["ip": $0] })) ?? Data())
        }
        let client = IPDataClient(apiKey: Self.apiKey, configuration: .init(connection: .transport(transport)))
        for try await first in client.lookupStream(addresses(400)) {
            XCTAssertEqual(first.ip, "8.0.0.0")
            break  // three more chunks are waiting at the transport
        }
        for _ in 0..<1_000 where transport.cancellations < 3 { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertEqual(transport.cancellations, 3, "leaving the loop cancelled every request still in flight")
    }

    func testAnInputErrorComesAfterTheResultsReadBeforeIt() async throws {
        answerLikeTheAPI()
        struct InputFailed: Error {}
        let ips = addresses(150)
        let input = AsyncThrowingStream<String, Error> { continuation in
            for ip in ips { continuation.yield(ip) }
            continuation.finish(throwing: InputFailed())
        }
        var delivered: [String] = []
        do {
            for try await result in client.lookupStream(input) { delivered.append(result.ip) }
            XCTFail("the input's error was not thrown")
        } catch is InputFailed {}
        XCTAssertEqual(delivered, ips, "every address read before the error was answered and delivered")
    }

    func testAnEmptyInputGivesNoResultsAndSendsNothing() async throws {
        let results = try await client.lookupAll([String]())
        XCTAssertTrue(results.isEmpty)
        XCTAssertTrue(sent.isEmpty)
    }
}
