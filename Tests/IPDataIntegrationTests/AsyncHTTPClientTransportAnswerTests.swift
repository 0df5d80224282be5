#if AsyncHTTPClient
import Foundation
import IPDataAsyncHTTPClient
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `AsyncHTTPClientTransport` hands its answers to the client (`response(for:limits:)`),
/// against the local server: its status, headers and body as AsyncHTTPClient read them, from the
/// request's own URL unless a redirect within the origin was followed; and what the client makes
/// of each.
final class AsyncHTTPClientTransportAnswerTests: LocalServerTestCase {
    private let limits = IPDataTransportLimits(deadline: 20, maximumResponseSize: 1_048_576)

    private func lookupRequest(_ base: URL, key: String) -> URLRequest {
        Endpoint.address("8.8.8.8").urlRequest(baseURL: base, apiKey: key, fields: nil)
    }

    func testASuccessFromTheRequestsOwnURLComesWithNoURLOfItsOwn() async throws {
        let request = lookupRequest(server.url("NORMAL"), key: server.key)
        let answer = try await AsyncHTTPClientTransport().response(for: request, limits: limits)
        XCTAssertEqual(answer.statusCode, 200)
        XCTAssertNil(answer.url)
        XCTAssertEqual(try IPResponse(jsonData: answer.body).ip, "8.8.8.8")
        XCTAssertNotNil(answer.value(forHTTPHeaderField: "content-type"), "\(answer.headers)")
        // The same bytes as the public call of 1.1.0, which adds the response.
        let (whole, response) = try await AsyncHTTPClientTransport().data(for: request, limits: limits)
        XCTAssertEqual(whole, answer.body)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
    }

    func testAnErrorStatusComesWithItsBody() async throws {
        let request = lookupRequest(server.url("NORMAL"), key: "not-the-key")
        let answer = try await AsyncHTTPClientTransport().response(for: request, limits: limits)
        XCTAssertEqual(answer.statusCode, 401)
        XCTAssertNil(answer.url)
        XCTAssertFalse(answer.body.isEmpty)
    }

    /// A success that came after a redirect within the origin is not the request's own URL's: it
    /// comes with the URL that gave it, for the client to check.
    func testASuccessAfterARedirectComesWithTheURLThatGaveIt() async throws {
        let base = URL(string: server.url("REDIRECT").absoluteString + "/s302")!
        let request = lookupRequest(base, key: server.key)
        let answer = try await AsyncHTTPClientTransport().response(for: request, limits: limits)
        XCTAssertEqual(answer.statusCode, 200)
        XCTAssertNotEqual(answer.url, request.url)
        XCTAssertEqual(answer.url?.path, "/same/8.8.8.8")
    }

    /// Tells `statuses` the status of each request as it ends.
    private struct StatusObserver: IPDataObserver {
        let statuses: Locked<[Int?]>

        func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
            statuses.withLock { $0.append(outcome.statusCode) }
        }
    }

    /// Through a client, a success and an error status are told to the observer.
    func testTheClientReportsTheStatusOfASuccessAndAnError() async throws {
        let statuses = Locked<[Int?]>([])
        func client(key: String) -> IPDataClient {
            var configuration = IPDataClient.Configuration(
                baseURL: server.url("NORMAL"), connection: .transport(AsyncHTTPClientTransport()))
            configuration.observer = StatusObserver(statuses: statuses)
            return IPDataClient(apiKey: key, configuration: configuration)
        }
        let response = try await client(key: server.key).lookup("8.8.8.8")
        XCTAssertEqual(response.ip, "8.8.8.8")
        let error = await failure { try await client(key: "not-the-key").lookup("8.8.8.8") }
        guard case .unauthorized? = error else { return XCTFail(String(describing: error)) }
        XCTAssertEqual(statuses.withLock { $0 }, [200, 401])
    }
}
#endif
