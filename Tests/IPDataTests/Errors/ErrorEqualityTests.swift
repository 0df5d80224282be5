import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPDataError` compared as a test compares it, and a cancellation told from a failure.
final class ErrorEqualityTests: XCTestCase {
    func testTheSameCaseAndMessageAreEqual() {
        XCTAssertEqual(IPDataError.unauthorized("no key"), .unauthorized("no key"))
        XCTAssertNotEqual(IPDataError.unauthorized("no key"), .unauthorized("another"))
        XCTAssertNotEqual(IPDataError.unauthorized("x"), .forbidden("x"))
        XCTAssertEqual(
            IPDataError.unexpectedStatus(statusCode: 429, message: "slow down"),
            .unexpectedStatus(statusCode: 429, message: "slow down"))
        XCTAssertNotEqual(
            IPDataError.unexpectedStatus(statusCode: 429, message: "x"),
            .unexpectedStatus(statusCode: 503, message: "x"))
    }

    func testWrappedErrorsAreEqualByTypeAndCode() {
        let timedOut = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://a.test/1")!])
        XCTAssertEqual(IPDataError.networkError(timedOut), .networkError(URLError(.timedOut)), "whatever the URL")
        XCTAssertNotEqual(IPDataError.networkError(URLError(.timedOut)), .networkError(URLError(.cancelled)))
        XCTAssertNotEqual(IPDataError.networkError(URLError(.timedOut)), .decodingFailed(URLError(.timedOut)))
        XCTAssertEqual(IPDataError.networkError(CancellationError()), .networkError(CancellationError()))
        XCTAssertNotEqual(IPDataError.networkError(CancellationError()), .networkError(URLError(.cancelled)))
    }

    func testACancelledLookupIsACancellation() async throws {
        let transport = StubTransport(otherwise: .status(200, body: #"{"ip": "8.8.8.8"}"#).delayed(30))
        let client = IPDataClient(apiKey: "test-key", configuration: .init(connection: .transport(transport)))
        let lookup = Task { try await client.lookup("8.8.8.8") }
        try await Task.sleep(nanoseconds: 50_000_000)
        lookup.cancel()
        do {
            _ = try await lookup.value
            XCTFail("the lookup was not cancelled")
        } catch let error as IPDataError {
            XCTAssertTrue(error.isCancellation, "\(error)")
        }
        XCTAssertTrue(IPDataError.networkError(CancellationError()).isCancellation)
        XCTAssertFalse(IPDataError.networkError(URLError(.timedOut)).isCancellation)
        XCTAssertFalse(IPDataError.forbidden("cancelled").isCancellation)
    }

    func testATimeoutDoesNotBlameASlowSender() {
        let text = IPDataTransportLimits.deadlineError(60).localizedDescription
        XCTAssertTrue(text.contains("the server did not answer, or sent the answer too slowly"), text)
    }
}
