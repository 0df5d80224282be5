import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A 401 carrying `WWW-Authenticate: Basic`. On Linux, URLSession waits for an answer to the
/// challenge forever unless a delegate refuses it. Apple's URLSession delivers the 401 itself,
/// which the client reports as `unauthorized` with the server's message, whichever session it uses.
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

    /// Each request has a task delegate of its own, which refuses the challenge on Linux whatever
    /// the session: `URLSession.shared` and an injected session end at once too, instead of at
    /// the request timeout (or never).
    func testAChallengeIsUnauthorizedPromptlyWithAnInjectedOrTheSharedSession() async throws {
        let session = URLSession(configuration: configuration(timeout: 30))
        defer { session.finishTasksAndInvalidate() }
        for (label, client) in [
            ("injected", IPDataClient(apiKey: server.key, baseURL: server.url("BASIC_AUTH"), session: session)),
            ("shared", IPDataClient(apiKey: server.key, baseURL: server.url("BASIC_AUTH"))),
        ] {
            let start = Date()
            do {
                _ = try await withinTimeLimit(20) { try await client.lookup("8.8.8.8") }
                XCTFail("\(label): a 401 returned a lookup")
            } catch IPDataError.unauthorized(let message) {
                #if canImport(FoundationNetworking)
                XCTAssertTrue(message.contains(#"Basic realm="ipdata""#), message)
                #else
                XCTAssertFalse(message.isEmpty)
                #endif
            }
            XCTAssertLessThan(elapsed(since: start), 10, "\(label): well before the 30 s request timeout")
            let milliseconds = Int(elapsed(since: start) * 1000)
            print("measured: \(label) session, 401 with a Basic challenge unauthorized in \(milliseconds) ms")
        }
    }
}
