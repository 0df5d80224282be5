import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A slow answer (the slow mode answers after 5 s) ends as `timedOut` at the client's deadline,
/// or at the transport's own timeout (URLSession's `timeoutIntervalForRequest`,
/// `AsyncHTTPClientTransport.timeout`), whichever comes first.
final class TimeoutTests: LocalServerTestCase {
    private func assertTimedOut(_ client: IPDataClient, saying text: String? = nil) async {
        let start = Date()
        let error = await failure { try await client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail(String(describing: error))
        }
        XCTAssertEqual(underlying.code, .timedOut)
        if let text { XCTAssertTrue(error!.description.contains(text), error!.description) }
        XCTAssertLessThan(elapsed(since: start), 4, "the slow mode answers after 5 s")
        print("measured: \(transport.rawValue): timed out after \(Int(elapsed(since: start) * 1000)) ms")
    }

    func testTheClientsDeadlineEndsASlowAnswerAsTimedOut() async throws {
        await assertTimedOut(client(server.url("SLOW"), timeout: 30, deadline: 1), saying: "deadline of 1 s")
    }

    func testTheTransportsTimeoutEndsASlowAnswerAsTimedOut() async throws {
        await assertTimedOut(client(server.url("SLOW"), timeout: 1, deadline: 30))
    }
}
