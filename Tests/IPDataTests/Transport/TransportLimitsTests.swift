import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport of the caller's is held to the deadline and the largest answer too.
final class TransportLimitsTests: XCTestCase {
    private typealias Reply = StubTransport.Reply

    func testATransportIsToldTheClientsDeadlineAndLargestAnswer() async throws {
        let recorder = StubTransport(otherwise: .status(200, body: #"{"ip":"8.8.8.8"}"#))
        let client = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(
                connection: .transport(recorder), deadline: 7, maximumResponseSize: 4_096))
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(recorder.limits, [IPDataTransportLimits(deadline: 7, maximumResponseSize: 4_096)])
    }

    func testWithoutADeadlineATransportIsToldSixtySeconds() async throws {
        let recorder = StubTransport(otherwise: .status(200, body: #"{"ip":"8.8.8.8"}"#))
        let client = IPDataClient(
            apiKey: "k", configuration: IPDataClient.Configuration(connection: .transport(recorder)))
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(recorder.limits, [IPDataTransportLimits(deadline: 60, maximumResponseSize: 10 * 1_048_576)])
    }

    func testACallPastItsDeadlineIsCancelledAndTimesOut() async throws {
        let client = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(
                connection: .transport(StubTransport(otherwise: Reply.status(200).delayed(3_600))), deadline: 0.3))
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("a silent transport returned a lookup")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertEqual(underlying.code, .timedOut)
            XCTAssertTrue(IPDataError.networkError(underlying).description.contains("deadline"))
        }
    }

    func testAnAnswerOverTheLimitIsRefused() async throws {
        let client = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(
                connection: .transport(StubTransport(otherwise: .body(Data(count: 2_000)))), maximumResponseSize: 1_000)
        )
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("an answer over the limit returned a lookup")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertEqual(underlying.code, .dataLengthExceedsMaximum)
        }
    }
}
