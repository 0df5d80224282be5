import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A 401 carrying `WWW-Authenticate: Basic`. On Linux, URLSession waits for an answer to the
/// challenge forever unless a delegate refuses it. Apple's URLSession and AsyncHTTPClient
/// deliver the 401 itself, which the client reports as `unauthorized` with the server's message,
/// whichever connection it uses.
final class AuthenticationChallengeTests: LocalServerTestCase {
    private func assertUnauthorizedMessage(_ message: String, _ label: String) throws {
        switch transport {
        case .urlSession:
            #if canImport(FoundationNetworking)
            // Linux: the refused challenge is described in the client's words.
            XCTAssertTrue(message.contains("HTTP 401"), "\(label): \(message)")
            XCTAssertTrue(message.contains(#"Basic realm="ipdata""#), "\(label): \(message)")
            #else
            // Apple platforms: the 401 itself arrives, with the body's message.
            XCTAssertFalse(message.isEmpty, label)
            #endif
        case .asyncHTTPClient:
            // The 401 itself arrives: the server's message.
            XCTAssertEqual(message, try DocumentedMessage.of("401-no-valid-api-key.json"), label)
        }
    }

    private func assertUnauthorizedPromptly(_ connection: ClientConnection) async throws {
        let client = client(server.url("BASIC_AUTH"), connection: connection, timeout: 30)
        let start = Date()
        do {
            _ = try await withinTimeLimit(20) { try await client.lookup("8.8.8.8") }
            XCTFail("\(connection): a 401 returned a lookup")
        } catch IPDataError.unauthorized(let message) {
            try assertUnauthorizedMessage(message, "\(connection)")
            XCTAssertFalse(message.contains(server.key), message)
        }
        XCTAssertLessThan(elapsed(since: start), 10, "\(connection): well before the 30 s request timeout")
        let milliseconds = Int(elapsed(since: start) * 1000)
        print("measured: \(connection) connection, 401 with a Basic challenge unauthorized in \(milliseconds) ms")
    }

    func testAChallengeIsUnauthorizedPromptlyWithAnOwnedSession() async throws {
        try await assertUnauthorizedPromptly(.own)
    }

    /// Each URLSession request has a task delegate of its own, which refuses the challenge on
    /// Linux whatever the session: `URLSession.shared` and an injected session end at once too,
    /// instead of at the request timeout (or never). Through AsyncHTTPClient: the shared client.
    func testAChallengeIsUnauthorizedPromptlyWithAnInjectedOrTheSharedSession() async throws {
        for connection in connectionKinds where connection != .own {
            try await assertUnauthorizedPromptly(connection)
        }
    }
}
