#if AsyncHTTPClient
import Foundation
import IPDataAsyncHTTPClient
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `AsyncHTTPClientTransport`'s own limits and the client's, against the local server: one value
/// governs both, and the transport itself stops reading at the limits it is told. (The suite's
/// other tests run through the transport with `IPDATA_TEST_TRANSPORT=asynchttpclient`.)
final class AsyncHTTPClientTransportLimitsTests: LocalServerTestCase {
    /// A client on `AsyncHTTPClientTransport()` (its shared HTTPClient) with a 20 s deadline.
    private func client(
        _ base: URL, transport: AsyncHTTPClientTransport = AsyncHTTPClientTransport(),
        retryPolicy: RetryPolicy = .default, deadline: TimeInterval = 20, maximumResponseSize: Int = 10 * 1_048_576
    ) -> IPDataClient {
        IPDataClient(
            apiKey: server.key,
            configuration: .init(
                baseURL: base, connection: .transport(transport), retryPolicy: retryPolicy, allowsInsecureHTTP: true,
                deadline: deadline, maximumResponseSize: maximumResponseSize))
    }

    /// The backend's endless JSON array (64 MiB at most).
    private var endless: URL { URL(string: server.url("BACKEND").absoluteString + "/hostile/endless")! }

    /// The `URLError` a lookup through `client` fails with; nil, and a test failure, otherwise.
    private func urlError(lookingUpWith client: IPDataClient) async -> URLError? {
        let error = await failure { try await client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else {
            XCTFail(String(describing: error))
            return nil
        }
        return underlying
    }

    func testAnEndlessBodyStopsAtTheTransportsSizeLimit() async throws {
        let client = client(endless, transport: AsyncHTTPClientTransport(maximumResponseSize: 1_048_576))
        let error = await urlError(lookingUpWith: client)
        XCTAssertEqual(error?.code, .dataLengthExceedsMaximum)
        XCTAssertEqual(
            error?.localizedDescription,
            "The answer was larger than 1 MiB, which no answer of the API is; see "
                + "AsyncHTTPClientTransport.maximumResponseSize.")
    }

    /// One value governs both: a client's limit lower than the transport's (10 MiB) stops the
    /// transport's reading at the client's, not after 10 MiB (whose error would name 10 MiB).
    func testAnEndlessBodyStopsAtTheClientsLimitWhenItIsLower() async throws {
        let error = await urlError(lookingUpWith: client(endless, maximumResponseSize: 65_536))
        XCTAssertEqual(error?.code, .dataLengthExceedsMaximum)
        XCTAssertEqual(
            error?.localizedDescription,
            "The answer was larger than 65536 bytes, which no answer of the API is; see "
                + "IPDataClient.Configuration.maximumResponseSize.")
    }

    /// The limits a client passes reach the transport itself: its reading stops at them even
    /// with no client around it to refuse the answer afterwards.
    func testTheTransportReadsNoMoreThanTheLimitItIsTold() async throws {
        let request = Endpoint.address("8.8.8.8").urlRequest(baseURL: endless, apiKey: server.key, fields: nil)
        let limits = IPDataTransportLimits(deadline: 20, maximumResponseSize: 100_000)
        do {
            let (body, _) = try await AsyncHTTPClientTransport().data(for: request, limits: limits)
            XCTFail("an endless body returned \(body.count) bytes")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .dataLengthExceedsMaximum)
            XCTAssertTrue(error.localizedDescription.contains("larger than 100000 bytes"), error.localizedDescription)
        }
    }

    /// The deadline a client passes bounds the wait for the answer's head in the transport itself
    /// (its own timeout, 10 s, would wait for the slow mode's answer after 5 s).
    func testTheTransportHoldsTheHeadToTheDeadlineItIsTold() async throws {
        let request = Endpoint.address("8.8.8.8").urlRequest(
            baseURL: server.url("SLOW"), apiKey: server.key, fields: nil)
        do {
            let (_, response) = try await AsyncHTTPClientTransport()
                .data(for: request, limits: IPDataTransportLimits(deadline: 1, maximumResponseSize: 1_048_576))
            XCTFail("the slow answer arrived: \(response)")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .timedOut)
        }
    }
}
#endif
