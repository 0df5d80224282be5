import Foundation
import IPDataTestSupport
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Cancelling the task that awaits a call cancels its HTTP request.
final class CancellationTests: MockedClientTestCase {
    func testCancellingTheTaskCancelsTheRequest() async throws {
        let arrived = expectation(description: "request reached the double")
        MockURLProtocol.stub { _, _ in
            arrived.fulfill()
            return .never
        }
        let client = try XCTUnwrap(self.client)
        let lookup = Task { try await client.lookup("8.8.8.8") }
        await fulfillment(of: [arrived], timeout: 10)
        lookup.cancel()
        // Bounded wait: if cancellation stopped reaching URLSession, this fails instead of hanging.
        let finished = expectation(description: "cancelled lookup finished")
        let outcome = Locked<Result<IPResponse, Error>?>(nil)
        Task {
            let result = await lookup.result
            outcome.withLock { $0 = result }
            finished.fulfill()
        }
        await fulfillment(of: [finished], timeout: 10)
        let result = try XCTUnwrap(outcome.withLock { $0 })
        guard case .failure(let error) = result, case IPDataError.networkError(let underlying) = error,
            let urlError = underlying as? URLError
        else {
            return XCTFail("expected networkError(URLError.cancelled), got \(result)")
        }
        XCTAssertEqual(urlError.code, .cancelled)
        // Apple's URLSession may call the protocol's `stopLoading` after it has delivered the
        // cancellation to the caller, so the count is awaited (within a bound), not read once.
        let deadline = Date().addingTimeInterval(10)
        while MockURLProtocol.stoppedRequests == 0, Date() < deadline {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTAssertEqual(MockURLProtocol.stoppedRequests, 1, "URLSession stopped the request")
    }

    func testCancellingABulkLookupDoesNotRetryIt() async throws {
        let arrived = expectation(description: "request reached the double")
        MockURLProtocol.stub { _, _ in
            arrived.fulfill()
            return .never
        }
        let client = try XCTUnwrap(self.client)
        let bulk = Task { try await client.bulkLookup(["8.8.8.8"]) }
        await fulfillment(of: [arrived], timeout: 10)
        bulk.cancel()
        let finished = expectation(description: "cancelled bulk lookup finished")
        Task {
            _ = try? await bulk.value
            finished.fulfill()
        }
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertEqual(sent.count, 1)
    }
}
