import Foundation
import XCTest

@testable import IPData

/// A 429 says it is one, and carries the wait its `Retry-After` asked for.
final class RateLimitErrorTests: XCTestCase {
    private func error(of reply: StubTransport.Reply) async throws -> IPDataError {
        let transport = StubTransport(otherwise: reply)
        let client = IPDataClient(apiKey: "secret-key", configuration: .init(connection: .transport(transport)))
        do {
            _ = try await client.lookup("8.8.8.8")
        } catch let error as IPDataError {
            return error
        }
        XCTFail("the lookup succeeded")
        throw CancellationError()
    }

    func testA429WithRetryAfterSecondsSaysSoAndCarriesIt() async throws {
        let error = try await error(
            of: .status(429, headers: ["Retry-After": "30"], body: "Too many requests, slow down"))
        XCTAssertTrue(error.isRateLimited)
        XCTAssertEqual(error.retryAfter, 30)
        XCTAssertEqual("\(error)", "HTTP 429: Too many requests, slow down (retry after 30 s)")
        guard case .unexpectedStatus(429, _) = error else { return XCTFail("1.0's case: \(error)") }
    }

    func testA429WithAnHTTPDateCountsFromNow() async throws {
        let date = Date().addingTimeInterval(120)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let error = try await error(of: .status(429, headers: ["Retry-After": formatter.string(from: date)], body: ""))
        let wait = try XCTUnwrap(error.retryAfter)
        XCTAssertTrue((118...121).contains(wait), "\(wait)")
        XCTAssertTrue("\(error)".hasPrefix("HTTP 429: Too Many Requests (retry after "), "\(error)")
    }

    func testA429WithoutRetryAfterAndOtherErrors() async throws {
        let bare = try await error(of: .status(429, body: ""))
        XCTAssertTrue(bare.isRateLimited)
        XCTAssertNil(bare.retryAfter)
        XCTAssertEqual("\(bare)", "HTTP 429: Too Many Requests")
        let nonsense = try await error(of: .status(429, headers: ["Retry-After": "soon"], body: ""))
        XCTAssertNil(nonsense.retryAfter, "a value that is neither form is no wait")
        let server = try await error(of: .status(503, headers: ["Retry-After": "30"], body: ""))
        XCTAssertFalse(server.isRateLimited)
        XCTAssertNil(server.retryAfter, "only a 429's")
        XCTAssertFalse(IPDataError.forbidden("You have exceeded your free quota.").isRateLimited, "a quota is a 403")
    }
}
