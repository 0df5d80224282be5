import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A 401 carrying `WWW-Authenticate: Basic`. On Linux, URLSession waits
/// for an answer to the challenge forever unless a session delegate refuses it. Apple's
/// URLSession delivers the 401 itself, which the client reports as `unauthorized` with the
/// server's message, whichever session it uses.
final class AuthenticationChallengeTests: LocalServerTestCase {
    func testAChallengeIsUnauthorizedPromptlyWithAnOwnedSession() async throws {
        let client = IPDataClient(
            apiKey: server.key, baseURL: server.url("BASIC_AUTH"), configuration: configuration(timeout: 30))
        let start = Date()
        do {
            _ = try await withinTimeLimit(20) { try await client.lookup("8.8.8.8") }
            XCTFail("a 401 returned a lookup")
        } catch IPDataError.unauthorized(let message) {
            #if canImport(FoundationNetworking)
            // Linux: the refused challenge is described in the client's words.
            XCTAssertTrue(message.contains("HTTP 401"), message)
            XCTAssertTrue(message.contains(#"Basic realm="ipdata""#), message)
            #else
            // Apple platforms: the 401 itself arrives, with the body's message.
            XCTAssertFalse(message.isEmpty)
            #endif
        }
        XCTAssertLessThan(elapsed(since: start), 10, "well before the 30 s request timeout")
        print("measured: 401 with a Basic challenge became unauthorized in \(Int(elapsed(since: start) * 1000)) ms")
    }

    func testAChallengeEndsAtTheRequestTimeoutWithAnInjectedSession() async throws {
        // An injected session without a delegate of ours. Linux: the client abandons the request
        // after the session's request timeout (2 s, plus 1 s of libcurl rounding) instead of
        // waiting forever. Apple platforms: the 401 arrives at once.
        let session = URLSession(configuration: configuration(timeout: 2))
        defer { session.finishTasksAndInvalidate() }
        let client = IPDataClient(apiKey: server.key, baseURL: server.url("BASIC_AUTH"), session: session)
        let start = Date()
        do {
            _ = try await withinTimeLimit(20) { try await client.lookup("8.8.8.8") }
            XCTFail("a 401 returned a lookup")
        } catch {
            #if canImport(FoundationNetworking)
            guard case IPDataError.networkError(let underlying as URLError) = error else {
                return XCTFail("expected networkError(URLError.timedOut), got \(error)")
            }
            XCTAssertEqual(underlying.code, .timedOut)
            #else
            guard case IPDataError.unauthorized = error else { return XCTFail("expected unauthorized, got \(error)") }
            #endif
        }
        XCTAssertLessThan(elapsed(since: start), 15)
        print(
            "measured: injected session, 401 with a Basic challenge abandoned after \(Int(elapsed(since: start) * 1000)) ms"
        )
    }
}
