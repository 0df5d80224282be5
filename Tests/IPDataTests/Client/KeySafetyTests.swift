import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The key goes to the base URL's origin, over https, and nowhere else (the redirects themselves
/// are proven against a real server in `RedirectTests`).
final class KeySafetyTests: MockedClientTestCase {
    private func redirectDecision(from: String, method: String = "GET", to: String) -> Bool {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        var original = URLRequest(url: URL(string: from)!)
        original.httpMethod = method
        let task = session.dataTask(with: original)
        let response = HTTPURLResponse(url: original.url!, statusCode: 302, httpVersion: nil, headerFields: nil)!
        let decision = Locked<URLRequest??>(.none)
        RequestDelegate().urlSession(
            session, task: task, willPerformHTTPRedirection: response, newRequest: URLRequest(url: URL(string: to)!)
        ) { request in decision.withLock { $0 = .some(request) } }
        task.cancel()
        guard case .some(let request) = decision.withLock({ $0 }) else {
            XCTFail("the delegate did not answer")
            return false
        }
        return request != nil
    }

    func testARedirectIsFollowedOnlyWithinTheOriginAndNeverForAPost() {
        let api = "https://api.ipdata.co/8.8.8.8?api-key=k"
        XCTAssertTrue(redirectDecision(from: api, to: "https://api.ipdata.co/v2/8.8.8.8?api-key=k"))
        XCTAssertTrue(redirectDecision(from: api, to: "https://API.ipdata.co:443/8.8.8.8"), "the same origin")
        XCTAssertFalse(redirectDecision(from: api, to: "https://evil.example/8.8.8.8?api-key=k"))
        XCTAssertFalse(redirectDecision(from: api, to: "http://api.ipdata.co/8.8.8.8?api-key=k"), "https to http")
        XCTAssertFalse(redirectDecision(from: api, to: "https://api.ipdata.co:8443/8.8.8.8"), "another port")
        XCTAssertFalse(redirectDecision(from: api, to: "https://eu-api.ipdata.co/8.8.8.8"), "another host")
        XCTAssertFalse(
            redirectDecision(from: "https://api.ipdata.co/bulk", method: "POST", to: "https://api.ipdata.co/v2/bulk"),
            "a POST would be sent again without its body")
    }

    func testAPlainHTTPBaseURLSendsNothingUnlessItIsThisMachineOrAllowed() async throws {
        let session = MockURLProtocol.makeSession()
        for base in ["http://api.ipdata.co", "http://192.168.1.20:8080/ipdata", "http://example.com"] {
            let client = IPDataClient(apiKey: "k", baseURL: URL(string: base)!, session: session)
            let error = await capturedError { try await client.lookup("8.8.8.8") }
            guard case .networkError(let underlying as URLError)? = error else {
                XCTFail("\(base): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(underlying.code, .appTransportSecurityRequiresSecureConnection)
            XCTAssertTrue(error!.description.contains("clear text"), error!.description)
        }
        XCTAssertEqual(sent.count, 0, "nothing was sent in clear text")

        MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
        for base in ["http://127.0.0.1:8080", "http://[::1]:8080", "http://localhost:9000/p", "https://api.ipdata.co"] {
            _ = try await IPDataClient(apiKey: "k", baseURL: URL(string: base)!, session: session).lookup("8.8.8.8")
        }
        let allowed = IPDataClient(
            apiKey: "k",
            configuration: IPDataClient.Configuration(
                baseURL: URL(string: "http://gateway.internal")!, connection: .session(session),
                allowsInsecureHTTP: true))
        _ = try await allowed.lookup("8.8.8.8")
        XCTAssertEqual(
            sent.map { $0.url.host ?? "" }, ["127.0.0.1", "::1", "localhost", "api.ipdata.co", "gateway.internal"])
    }

    func testAnUnfollowedRedirectIsAnUnexpectedStatusNamingOnlyTheOrigin() async throws {
        MockURLProtocol.respond(
            status: 301, body: Data("<html>moved</html>".utf8),
            headers: ["Location": "http://collector.example:8080/8.8.8.8?api-key=\(Self.apiKey)"])
        let error = await capturedError { try await self.client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(301, let message)? = error else { return XCTFail(String(describing: error)) }
        XCTAssertTrue(message.contains("http://collector.example:8080, another origin"), message)
        XCTAssertFalse(message.contains(Self.apiKey), message)
    }

    func testAnAnswerFromAnotherOriginIsNotUsed() async {
        // A transport that hands back an answer from another origin followed a redirect there.
        var elsewhere = StubTransport.Reply.status(200)
        elsewhere.url = URL(string: "https://collector.example/8.8.8.8")
        let redirected = StubTransport(otherwise: elsewhere)
        let client = IPDataClient(apiKey: "k", configuration: .init(connection: .transport(redirected)))
        let error = await capturedError { try await client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else { return XCTFail(String(describing: error)) }
        XCTAssertEqual(underlying.code, .badServerResponse)
        XCTAssertTrue(error!.description.contains("https://collector.example:443"), error!.description)
    }
}
