import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How HTTP statuses, bodies and transport failures become `IPDataError`.
final class ErrorTests: MockedClientTestCase {
    private func error(status: Int, fixture: String) async throws -> IPDataError? {
        MockURLProtocol.respond(status: status, body: try Fixture.data(fixture))
        return await capturedError { try await self.client.lookup("8.8.8.8") }
    }

    func testStatus400IsBadRequestWithTheAPIMessage() async throws {
        let error = try await error(status: 400, fixture: "errors/400-private-ip.json")
        guard case .badRequest("127.0.0.1 is a private IP address")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testStatus401IsUnauthorized() async throws {
        let error = try await error(status: 401, fixture: "errors/401-no-valid-api-key.json")
        guard case .unauthorized("You have not provided a valid API Key.")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testStatus403IsForbidden() async throws {
        let error = try await error(status: 403, fixture: "errors/403-free-quota-exceeded.json")
        guard case .forbidden(let message)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(
            message, "You have exceeded your free quota. Upgrade to a paid plan to re-activate your account.")
    }

    func testStatus404IsNotFound() async throws {
        MockURLProtocol.respond(status: 404, body: Data(#"{"message": "AS4294967295 was not found."}"#.utf8))
        let error = await capturedError { try await self.client.lookupASN("AS4294967295") }
        guard case .notFound("AS4294967295 was not found.")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testOtherStatusesAreUnexpectedStatusWithCode() async throws {
        MockURLProtocol.respond(status: 500, body: Data(#"{"message": "Internal error"}"#.utf8))
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(500, "Internal error")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testEveryDocumentedErrorBodyMapsToItsCaseWithItsExactMessage() async throws {
        let files = try Fixture.files(in: "errors")
        XCTAssertGreaterThanOrEqual(files.count, 13)
        for file in files {
            let status = Int(file.dropFirst("errors/".count).prefix(3))!
            let expected = try JSONSerialization.jsonObject(with: Fixture.data(file)) as! [String: String]
            MockURLProtocol.respond(status: status, body: try Fixture.data(file))
            let error = await capturedError { try await self.client.lookup("8.8.8.8") }
            let message: String?
            switch (status, error) {
            case (400, .badRequest(let text)?), (401, .unauthorized(let text)?), (403, .forbidden(let text)?),
                (404, .notFound(let text)?):
                message = text
            default:
                message = nil
            }
            XCTAssertEqual(message, expected["message"], file)
        }
    }

    func testABodyThatIsNotJSONIsTheMessageAsText() async throws {
        MockURLProtocol.respond(status: 429, body: Data("Too many requests\n".utf8))
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(429, "Too many requests")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testAJSONBodyWithoutAMessageIsTheMessageAsText() async throws {
        MockURLProtocol.respond(status: 400, body: Data(#"{"error": "odd"}"#.utf8))
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .badRequest(#"{"error": "odd"}"#)? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    /// An error page is not copied whole into the error: a page's title, another body's first
    /// line, at most 300 characters, and the reason phrase for an empty body.
    func testAnErrorBodyBecomesOneShortLine() async throws {
        let padding = String(repeating: "<p>padding</p>\n", count: 70_000)
        let head = "<!DOCTYPE html>\n<html><head><TITLE> 502 Bad Gateway </TITLE></head>\n"
        let page = head + "<body>\(padding)</body></html>"
        XCTAssertGreaterThan(page.utf8.count, 1_000_000)
        let table: [(body: String, status: Int, message: String)] = [
            (page, 502, "502 Bad Gateway"),
            ("upstream timed out\nwhile reading\n", 504, "upstream timed out"),
            (String(repeating: "x", count: 5_000), 500, String(repeating: "x", count: 299) + "…"),
            (
                #"{"message":""# + String(repeating: "y", count: 400) + #""}"#, 500,
                String(repeating: "y", count: 299) + "…"
            ),
            ("", 503, HTTPURLResponse.localizedString(forStatusCode: 503)),
            (" \n ", 500, HTTPURLResponse.localizedString(forStatusCode: 500)),
        ]
        for row in table {
            MockURLProtocol.respond(status: row.status, body: Data(row.body.utf8))
            let error = await capturedError { try await self.client.lookup("8.8.8.8") }
            guard case .unexpectedStatus(row.status, let message)? = error else {
                XCTFail("\(row.status): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(message, row.message)
            XCTAssertFalse(message.isEmpty)
        }
    }

    func testASuccessBodyThatIsNotJSONIsADecodingFailure() async throws {
        MockURLProtocol.respond(body: Data("<html>gateway</html>".utf8))
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .decodingFailed(let underlying)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(underlying is DecodingError)
    }

    func testAnArrayWhereAnObjectIsExpectedIsADecodingFailure() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.bulkPair))
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .decodingFailed? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testAnObjectWhereABulkArrayIsExpectedIsADecodingFailure() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        let error = await capturedError { try await self.client.bulkLookup(["8.8.8.8"]) }
        guard case .decodingFailed? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testTransportFailureIsANetworkErrorKeepingTheURLErrorCode() async throws {
        MockURLProtocol.stub { _, _ in .failure(URLError(.timedOut)) }
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail("got \(String(describing: error))")
        }
        XCTAssertEqual(underlying.code, .timedOut)
    }

    func testDescriptionsKeepThe101Wording() {
        struct Underlying: LocalizedError, CustomStringConvertible {
            var description: String { "the dump of every field" }
            var errorDescription: String? { "boom" }
        }
        XCTAssertEqual(IPDataError.badRequest("m").description, "Bad Request: m")
        XCTAssertEqual(IPDataError.unauthorized("m").description, "Unauthorized: m")
        XCTAssertEqual(IPDataError.forbidden("m").description, "Forbidden: m")
        XCTAssertEqual(IPDataError.notFound("m").description, "Not Found: m")
        XCTAssertEqual(IPDataError.unexpectedStatus(statusCode: 503, message: "m").description, "HTTP 503: m")
        XCTAssertEqual(IPDataError.decodingFailed(Underlying()).description, "Decoding failed: boom")
        XCTAssertEqual(IPDataError.networkError(Underlying()).description, "Network error: boom")
        XCTAssertEqual(IPDataError.forbidden("m").localizedDescription, "Forbidden: m")
    }

    /// 1.0.1 printed a wrapped error's `localizedDescription`, not its dump: for the URL errors a
    /// lookup meets, Apple's sentence, on every platform, and never the failing URL or the key.
    func testANetworkErrorReadsAsOneSentence() {
        let url = URL(string: "https://api.ipdata.co/8.8.8.8?api-key=SENTINEL-KEY-55")!
        let timedOut = KeyRedaction(apiKey: "SENTINEL-KEY-55")
            .networkError(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        XCTAssertEqual(timedOut.description, "Network error: The request timed out.")
        let table: [(URLError.Code, String)] = [
            (.notConnectedToInternet, "The Internet connection appears to be offline."),
            (.cannotConnectToHost, "Could not connect to the server."),
            (.cannotFindHost, "A server with the specified hostname could not be found."),
            (.networkConnectionLost, "The network connection was lost."),
        ]
        for (code, sentence) in table {
            XCTAssertEqual(IPDataError.networkError(URLError(code)).description, "Network error: \(sentence)")
        }
        let described = URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "Its own words."])
        XCTAssertEqual(IPDataError.networkError(described).description, "Network error: Its own words.")
    }

    func testANetworkErrorNeverRevealsTheAPIKey() async throws {
        let key = "SENTINEL-KEY-93f1"
        let client = IPDataClient(apiKey: key, session: MockURLProtocol.makeSession())
        MockURLProtocol.stub { request, _ in
            .failure(
                URLError(
                    .networkConnectionLost,
                    userInfo: [
                        NSURLErrorFailingURLErrorKey: request.url,
                        NSLocalizedDescriptionKey: "lost \(request.url.absoluteString)",
                    ]))
        }
        let error = await capturedError { try await client.lookup("8.8.8.8") }
        let unwrapped = try XCTUnwrap(error)
        for text in [unwrapped.description, unwrapped.localizedDescription, String(reflecting: unwrapped)] {
            XCTAssertFalse(text.contains(key), text)
        }
        guard case .networkError(let underlying as URLError) = unwrapped else { return XCTFail("\(unwrapped)") }
        XCTAssertEqual(underlying.code, .networkConnectionLost)
        XCTAssertEqual(underlying.failingURL?.absoluteString, "https://api.ipdata.co/8.8.8.8?api-key=REDACTED")
    }

    func testAnErrorMessageEchoingTheKeyIsRedacted() async throws {
        MockURLProtocol.respond(status: 401, body: Data(#"{"message": "test-key-123 is not a valid key"}"#.utf8))
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .unauthorized("REDACTED is not a valid key")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }
}
