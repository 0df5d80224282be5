import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `POST /bulk` through URLSession: resent once after `URLError.networkConnectionLost`, as the SDK
/// always has, unless the retry policy's `bulkResends` says otherwise.
final class BulkRetryTests: MockedClientTestCase {
    private func failFirst(_ code: URLError.Code, times: Int, thenAnswer body: Data) {
        MockURLProtocol.stub { _, attempt in
            attempt <= times ? .failure(URLError(code)) : .http(status: 200, body: body, headers: [:])
        }
    }

    func testBulkIsResentOnceAfterALostConnection() async throws {
        failFirst(.networkConnectionLost, times: 1, thenAnswer: try Fixture.data(Fixture.bulkPair))
        let results = try await client.bulkLookup(["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(results.map(\.ip), ["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent[0].body, sent[1].body, "the retry carries the same body")
        XCTAssertEqual(sent[0].url, sent[1].url)
    }

    func testBulkIsResentOnlyOnce() async throws {
        failFirst(.networkConnectionLost, times: 2, thenAnswer: try Fixture.data(Fixture.bulkPair))
        let error = await capturedError { try await self.client.bulkLookup(["8.8.8.8"]) }
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail("expected networkError(URLError), got \(String(describing: error))")
        }
        XCTAssertEqual(underlying.code, .networkConnectionLost)
        XCTAssertEqual(sent.count, 2)
    }

    func testBulkIsResentAfterALostConnectionWhenThePolicyAsks() async throws {
        failFirst(.networkConnectionLost, times: 1, thenAnswer: try Fixture.data(Fixture.bulkPair))
        var policy = RetryPolicy(maximumAttempts: 2, initialDelay: 0)
        policy.bulkResends = .asLookups
        let client = IPDataClient(
            apiKey: Self.apiKey,
            configuration: .init(connection: .session(MockURLProtocol.makeSession()), retryPolicy: policy))
        let results = try await client.bulkLookup(["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(results.map(\.ip), ["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent[0].body, sent[1].body, "the retry carries the same body")
        XCTAssertEqual(sent[0].url, sent[1].url)
    }

    func testBulkIsNotResentAfterOtherNetworkErrors() async throws {
        for code in [URLError.Code.timedOut, .notConnectedToInternet, .cannotConnectToHost, .cancelled] {
            MockURLProtocol.reset()
            failFirst(code, times: 1, thenAnswer: try Fixture.data(Fixture.bulkPair))
            let error = await capturedError { try await self.client.bulkLookup(["8.8.8.8"]) }
            guard case .networkError(let underlying as URLError)? = error else {
                return XCTFail("expected networkError for \(code), got \(String(describing: error))")
            }
            XCTAssertEqual(underlying.code, code)
            XCTAssertEqual(sent.count, 1, "\(code) is not retried")
        }
    }

    func testBulkIsNotResentAfterAnHTTPStatus() async throws {
        for status in [500, 502, 503, 429] {
            MockURLProtocol.reset()
            MockURLProtocol.respond(status: status, body: Data("{\"message\": \"try later\"}".utf8))
            let error = await capturedError { try await self.client.bulkLookup(["8.8.8.8"]) }
            guard case .unexpectedStatus(status, "try later")? = error else {
                return XCTFail("expected unexpectedStatus(\(status)), got \(String(describing: error))")
            }
            XCTAssertEqual(sent.count, 1, "HTTP \(status) is not retried")
        }
    }
}
