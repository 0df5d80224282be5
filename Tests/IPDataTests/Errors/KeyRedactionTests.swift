import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The API key never appears in any error, whatever failed.
final class KeyRedactionTests: MockedClientTestCase {
    /// A key with characters that URLs percent-encode, so both of its spellings are checked.
    private static let sentinel = "SENTINEL+key/93=f1&"
    private static let encodedSentinel = "SENTINEL%2Bkey%2F93%3Df1%26"

    private func errorTexts(_ error: IPDataError) -> [String] {
        var texts = [error.description, error.localizedDescription, String(reflecting: error), "\(error)"]
        switch error {
        case .networkError(let underlying), .decodingFailed(let underlying):
            texts += [String(reflecting: underlying), "\(underlying)", underlying.localizedDescription]
            if let urlError = underlying as? URLError {
                texts.append(urlError.failingURL?.absoluteString ?? "")
                texts.append(String(describing: urlError.userInfo))
            }
        default:
            break
        }
        return texts
    }

    private func assertNoKey(
        in error: IPDataError?, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error else { return XCTFail("\(label): no error", file: file, line: line) }
        for text in errorTexts(error) {
            XCTAssertFalse(text.contains(Self.sentinel), "\(label): \(text)", file: file, line: line)
            XCTAssertFalse(text.contains(Self.encodedSentinel), "\(label): \(text)", file: file, line: line)
        }
    }

    func testNoErrorPathRevealsTheKey() async throws {
        let client = IPDataClient(apiKey: Self.sentinel, session: MockURLProtocol.makeSession())
        let echo = "{\"message\": \"bad key \(Self.sentinel) \(Self.encodedSentinel)\"}"
        let answers: [(String, MockURLProtocol.Stub)] = [
            (
                "lost connection with the URL in its user info",
                { request, _ in
                    .failure(
                        URLError(
                            .networkConnectionLost,
                            userInfo: [
                                NSURLErrorFailingURLErrorKey: request.url,
                                NSLocalizedDescriptionKey: "lost \(request.url.absoluteString)",
                                NSUnderlyingErrorKey: NSError(
                                    domain: "curl", code: 56, userInfo: ["url": request.url.absoluteString]),
                            ]))
                }
            ),
            (
                "timeout",
                { request, _ in .failure(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: request.url])) }
            ),
            ("400 echoing the key", { _, _ in .http(status: 400, body: Data(echo.utf8), headers: [:]) }),
            ("401 echoing the key", { _, _ in .http(status: 401, body: Data(echo.utf8), headers: [:]) }),
            ("403 echoing the key", { _, _ in .http(status: 403, body: Data(echo.utf8), headers: [:]) }),
            ("404 echoing the key", { _, _ in .http(status: 404, body: Data(echo.utf8), headers: [:]) }),
            (
                "500 as text echoing the key",
                { _, _ in .http(status: 500, body: Data("key \(Self.sentinel)".utf8), headers: [:]) }
            ),
            (
                "undecodable body",
                { _, _ in .http(status: 200, body: Data("not json \(Self.sentinel)".utf8), headers: [:]) }
            ),
        ]
        for (label, stub) in answers {
            MockURLProtocol.reset()
            MockURLProtocol.stub(stub)
            assertNoKey(in: await capturedError { try await client.lookup("8.8.8.8") }, "lookup, \(label)")
            assertNoKey(in: await capturedError { try await client.bulkLookup(["8.8.8.8"]) }, "bulk, \(label)")
            assertNoKey(in: await capturedError { try await client.lookupASN("AS1") }, "asn, \(label)")
            do {
                // A 200 of any body is a success for a raw field lookup; only its errors matter here.
                _ = try await client.lookupField("8.8.8.8", field: "asn")
            } catch let error as IPDataError {
                assertNoKey(in: error, "field, \(label)")
            }
        }
        assertNoKey(in: await capturedError { try await client.lookup("bleh") }, "local validation")
    }

    func testTheFailingURLKeepsEverythingButTheKey() {
        let redaction = KeyRedaction(apiKey: Self.sentinel)
        let url = URL(string: "https://api.ipdata.co/8.8.8.8?api-key=\(Self.encodedSentinel)&fields=ip")!
        let redacted = redaction.redact(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        XCTAssertEqual(redacted.code, .timedOut)
        XCTAssertEqual(redacted.failingURL?.absoluteString, "https://api.ipdata.co/8.8.8.8?api-key=REDACTED&fields=ip")
    }
}

extension KeyRedactionTests {
    func testDumpingTheClientDoesNotShowTheKey() {
        var text = ""
        dump(IPDataClient(apiKey: Self.sentinel), to: &text)
        XCTAssertFalse(text.contains(Self.sentinel), text)
        XCTAssertFalse(String(reflecting: IPDataClient(apiKey: Self.sentinel)).contains(Self.sentinel))
    }

    /// The key is hidden where it can stand (a query value, a header, a URL, an echoed message)
    /// and nowhere else: a short key does not garble the words around it.
    func testRedactionHidesTheKeyWithoutGarblingOtherText() {
        for key in ["e", "ab", "0123456789abcdef0123456789abcdef01234567"] {
            let encoded = URLText.queryValue(key)
            let text =
                "Unauthorized: You have not provided a valid API Key. (ab, e.g. abe) "
                + "https://api.ipdata.co/8.8.8.8?api-key=\(encoded)&fields=ip api-key: \(key) echoed \"\(key)\""
            let expected =
                "Unauthorized: You have not provided a valid API Key. (ab, e.g. abe) "
                + "https://api.ipdata.co/8.8.8.8?api-key=REDACTED&fields=ip api-key: REDACTED echoed \"REDACTED\""
            let redacted = KeyRedaction(apiKey: key).redact(text)
            if key == "ab" {
                // "(ab," is the key standing alone, so it goes too; "abe" is a word and stays.
                XCTAssertEqual(redacted, expected.replacingOccurrences(of: "(ab,", with: "(REDACTED,"), key)
            } else if key == "e" {
                // "e.g." begins with the key standing alone; that is all a one-letter key may cost.
                XCTAssertEqual(redacted, expected.replacingOccurrences(of: " e.g.", with: " REDACTED.g."), key)
            } else {
                XCTAssertEqual(redacted, expected, key)
            }
            XCTAssertTrue(KeyRedaction(apiKey: key).appears(in: text))
            XCTAssertFalse(KeyRedaction(apiKey: key).appears(in: "Unauthorized abe"))
        }
    }
}
