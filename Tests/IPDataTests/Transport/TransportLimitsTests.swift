import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport of the caller's is held to the deadline and the largest answer too.
final class TransportLimitsTests: XCTestCase {
    /// A transport that never answers until it is cancelled.
    private struct SilentTransport: IPDataTransport {
        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            while true {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
        }
    }

    /// A transport that answers with `size` bytes.
    private struct LargeTransport: IPDataTransport {
        let size: Int

        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: [:])!
            return (Data(count: size), response)
        }
    }

    /// A transport that keeps the limits it is told, and answers a lookup.
    private final class LimitsRecorder: IPDataTransport {
        private let told = Locked<[IPDataTransportLimits]>([])
        var limits: [IPDataTransportLimits] { told.withLock { $0 } }

        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            XCTFail("the client called data(for:), not data(for:limits:)")
            throw URLError(.unsupportedURL)
        }

        func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse) {
            told.withLock { $0.append(limits) }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: [:])!
            return (Data(#"{"ip":"8.8.8.8"}"#.utf8), response)
        }
    }

    func testATransportIsToldTheClientsDeadlineAndLargestAnswer() async throws {
        let recorder = LimitsRecorder()
        let client = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(
                connection: .transport(recorder), deadline: 7, maximumResponseSize: 4_096))
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(recorder.limits, [IPDataTransportLimits(deadline: 7, maximumResponseSize: 4_096)])
    }

    func testWithoutADeadlineATransportIsToldSixtySeconds() async throws {
        let recorder = LimitsRecorder()
        let client = IPDataClient(
            apiKey: "k", configuration: IPDataClient.Configuration(connection: .transport(recorder)))
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(recorder.limits, [IPDataTransportLimits(deadline: 60, maximumResponseSize: 10 * 1_048_576)])
    }

    /// A transport written before 1.1.0 has only `data(for:)`, which the default `data(for:limits:)` calls.
    func testATransportWithoutDataForLimitsIsStillCalled() async throws {
        let client = IPDataClient(
            apiKey: "k", configuration: IPDataClient.Configuration(connection: .transport(LargeTransport(size: 10))))
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("ten zero bytes decoded as a lookup")
        } catch IPDataError.decodingFailed {
            // The ten bytes arrived: the transport was called.
        }
    }

    func testACallPastItsDeadlineIsCancelledAndTimesOut() async throws {
        let client = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(connection: .transport(SilentTransport()), deadline: 0.3))
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
                connection: .transport(LargeTransport(size: 2_000)), maximumResponseSize: 1_000))
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("an answer over the limit returned a lookup")
        } catch IPDataError.networkError(let underlying as URLError) {
            XCTAssertEqual(underlying.code, .dataLengthExceedsMaximum)
        }
    }
}
