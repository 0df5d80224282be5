import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test case whose `client` talks only to `MockURLProtocol`.
class MockedClientTestCase: XCTestCase {
    static let apiKey = "test-key-123"

    var client: IPDataClient!

    override func setUp() {
        super.setUp()
        MockURLProtocol.reset()
        client = IPDataClient(apiKey: Self.apiKey, session: MockURLProtocol.makeSession())
    }

    override func tearDown() {
        client = nil
        super.tearDown()
    }

    /// The requests the client sent in this test.
    var sent: [MockURLProtocol.Recorded] { MockURLProtocol.requests }

    /// The one request the client sent; fails the test when it sent another number.
    func onlyRequest(file: StaticString = #filePath, line: UInt = #line) throws -> MockURLProtocol.Recorded {
        let requests = sent
        XCTAssertEqual(requests.count, 1, "requests sent", file: file, line: line)
        return try XCTUnwrap(requests.first, file: file, line: line)
    }

    /// Runs `operation`, which must throw an `IPDataError`, and returns that error.
    func capturedError<Value>(
        file: StaticString = #filePath, line: UInt = #line, _ operation: () async throws -> Value
    ) async -> IPDataError? {
        do {
            _ = try await operation()
            XCTFail("expected an IPDataError, got a value", file: file, line: line)
        } catch let error as IPDataError {
            return error
        } catch {
            XCTFail("expected an IPDataError, got \(error)", file: file, line: line)
        }
        return nil
    }

    /// Answers `POST /bulk` like the API: one object per address in order, `{"message": …}` for
    /// the ones in 10.0.0.0/8; single lookups answer with the address.
    func answerLikeTheAPI(bulkStatus: Int = 200, bulkBody: Data? = nil) {
        MockURLProtocol.stub { request, _ in
            if request.url.path == "/bulk" {
                if let bulkBody { return .http(status: bulkStatus, body: bulkBody, headers: [:]) }
                let ips = (try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [String] ?? []
                let objects = ips.map { ip -> [String: String] in
                    ip.hasPrefix("10.")
                        ? ["message": "\(ip) is a private IP address"] : ["ip": ip, "country_code": "US"]
                }
                return .http(
                    status: 200, body: (try? JSONSerialization.data(withJSONObject: objects)) ?? Data(), headers: [:])
            }
            let ip = String(request.url.path.dropFirst())
            let body = (try? JSONSerialization.data(withJSONObject: ["ip": ip, "country_code": "US"])) ?? Data()
            return .http(status: 200, body: body, headers: [:])
        }
    }
}

extension MockURLProtocol.Recorded {
    /// The query items of the URL, by name.
    var query: [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// A header, by case-insensitive name.
    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
