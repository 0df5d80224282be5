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
