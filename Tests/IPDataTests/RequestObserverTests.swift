import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Configuration.onRequestEnd`: each request the client sends is reported as it ends, with the
/// key redacted, for the command-line tool's `--verbose`.
final class RequestObserverTests: MockedClientTestCase {
    private let reported = Locked<[SentRequest]>([])

    private func observedClient(retryPolicy: RetryPolicy = .default) -> IPDataClient {
        var configuration = IPDataClient.Configuration(
            connection: .session(MockURLProtocol.makeSession()), retryPolicy: retryPolicy)
        let reported = self.reported
        configuration.onRequestEnd = { request in reported.withLock { $0.append(request) } }
        return IPDataClient(apiKey: Self.apiKey, configuration: configuration)
    }

    func testAnAnsweredRequestIsReportedWithItsStatusAndNoKey() async throws {
        MockURLProtocol.respond(status: 404, body: Data(#"{"message": "AS… was not found."}"#.utf8))
        _ = await capturedError { try await self.observedClient().lookupField("8.8.8.8", field: "asn") }
        let request = try XCTUnwrap(reported.withLock { $0 }.first)
        XCTAssertEqual(reported.withLock { $0.count }, 1)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.url.absoluteString, "https://api.ipdata.co/8.8.8.8/asn?api-key=REDACTED")
        XCTAssertEqual(request.statusCode, 404)
        XCTAssertNil(request.failure)
        XCTAssertGreaterThanOrEqual(request.duration, 0)
    }

    func testEachAttemptIsReportedAndAFailureCarriesItsError() async throws {
        let body = try Fixture.data(Fixture.bulkPair)
        MockURLProtocol.stub { _, attempt in
            attempt == 1
                ? .failure(URLError(.networkConnectionLost)) : .http(status: 200, body: body, headers: [:])
        }
        var policy = RetryPolicy(maximumAttempts: 2, initialDelay: 0)
        policy.bulkResends = .asLookups
        _ = try await observedClient(retryPolicy: policy).bulkLookup(["8.8.8.8", "1.1.1.1"])
        let requests = reported.withLock { $0 }
        XCTAssertEqual(requests.map(\.method), ["POST", "POST"])
        XCTAssertEqual(requests.map(\.statusCode), [nil, 200])
        XCTAssertEqual(requests.map(\.mayHaveReachedTheServer), [true, true])
        guard case .networkError(let error as URLError)? = requests.first?.failure else {
            return XCTFail("expected a network error, got \(String(describing: requests.first?.failure))")
        }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertFalse(String(reflecting: requests).contains(Self.apiKey))
    }

    func testARateLimitCarriesItsRetryAfterAndARefusedConnectionReachedNoServer() async throws {
        MockURLProtocol.stub { _, attempt in
            switch attempt {
            case 1: return .failure(URLError(.cannotConnectToHost))
            case 2: return .http(status: 429, body: Data("Too Many Requests".utf8), headers: ["Retry-After": "0"])
            default: return .http(status: 200, body: Data(#"{"ip":"8.8.8.8"}"#.utf8), headers: [:])
            }
        }
        _ = try await observedClient(retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 0)).lookup("8.8.8.8")
        let requests = reported.withLock { $0 }
        XCTAssertEqual(requests.map(\.statusCode), [nil, 429, 200])
        XCTAssertEqual(requests.map(\.retryAfter), [nil, "0", nil])
        XCTAssertEqual(requests.map(\.mayHaveReachedTheServer), [false, true, true])
    }
}
