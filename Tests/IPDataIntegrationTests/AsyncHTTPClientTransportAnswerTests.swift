#if AsyncHTTPClient
import Foundation
import IPDataAsyncHTTPClient
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `AsyncHTTPClientTransport` hands its answers to the client (`answer(to:limits:)`), against
/// the local server: a success from the request's own URL as its status and body alone, with no
/// `HTTPURLResponse` made for it; any other answer whole; and what the client makes of each.
final class AsyncHTTPClientTransportAnswerTests: LocalServerTestCase {
    private let limits = IPDataTransportLimits(deadline: 20, maximumResponseSize: 1_048_576)

    private func lookupRequest(_ base: URL, key: String) -> URLRequest {
        Endpoint.address("8.8.8.8").urlRequest(baseURL: base, apiKey: key, fields: nil)
    }

    func testASuccessFromTheRequestsOwnURLComesAsItsStatusAndBody() async throws {
        let request = lookupRequest(server.url("NORMAL"), key: server.key)
        let answer = try await AsyncHTTPClientTransport().answer(to: request, limits: limits)
        guard case .success(let status, let body) = answer else { return XCTFail("\(answer)") }
        XCTAssertEqual(status, 200)
        XCTAssertEqual(try IPResponse(jsonData: body).ip, "8.8.8.8")
        // The same bytes as the public call, which adds the response.
        let (whole, response) = try await AsyncHTTPClientTransport().data(for: request, limits: limits)
        XCTAssertEqual(whole, body)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
    }

    func testAnErrorStatusComesWhole() async throws {
        let request = lookupRequest(server.url("NORMAL"), key: "not-the-key")
        let answer = try await AsyncHTTPClientTransport().answer(to: request, limits: limits)
        guard case .response(let body, let response as HTTPURLResponse) = answer else { return XCTFail("\(answer)") }
        XCTAssertEqual(response.statusCode, 401)
        XCTAssertEqual(response.url, request.url)
        XCTAssertFalse(body.isEmpty)
    }

    /// A success that came after a redirect within the origin is not the request's own URL's: it
    /// comes whole, with the URL that gave it, for the client to check.
    func testASuccessAfterARedirectComesWholeWithTheURLThatGaveIt() async throws {
        let base = URL(string: server.url("REDIRECT").absoluteString + "/s302")!
        let request = lookupRequest(base, key: server.key)
        let answer = try await AsyncHTTPClientTransport().answer(to: request, limits: limits)
        guard case .response(_, let response as HTTPURLResponse) = answer else { return XCTFail("\(answer)") }
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertNotEqual(response.url, request.url)
        XCTAssertEqual(response.url?.path, "/same/8.8.8.8")
    }

    /// Tells `statuses` the status of each request as it ends.
    private struct StatusObserver: IPDataObserver {
        let statuses: Locked<[Int?]>

        func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
            statuses.withLock { $0.append(outcome.statusCode) }
        }
    }

    /// Through a client, both kinds of answer report their status to the observer.
    func testTheClientReportsTheStatusOfEitherKindOfAnswer() async throws {
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
