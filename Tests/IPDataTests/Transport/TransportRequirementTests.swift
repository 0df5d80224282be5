import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPDataTransport`'s one requirement, `response(for:limits:)`: a transport that implements it
/// alone gets the client's limits and hands over status, headers and body; its `data(for:)`
/// calls of 1.1.0 still work; and a transport of 1.1.0 around it passes the limits on.
final class TransportRequirementTests: XCTestCase {
    /// A transport with only the new requirement, answering from a script and keeping the limits.
    private final class ResponseTransport: IPDataTransport {
        private let script: Locked<[IPDataTransportResponse]>
        let told = Locked<[IPDataTransportLimits]>([])

        init(_ script: [IPDataTransportResponse]) { self.script = Locked(script) }

        func response(for request: URLRequest, limits: IPDataTransportLimits) async throws
            -> IPDataTransportResponse
        {
            told.withLock { $0.append(limits) }
            return script.withLock {
                $0.isEmpty ? IPDataTransportResponse(statusCode: 200, body: Data("{}".utf8)) : $0.removeFirst()
            }
        }
    }

    /// A transport written for 1.1.0 that wraps another, through its `data(for:limits:)`.
    private struct WrapperOf110: IPDataTransport {
        let inner: any IPDataTransport

        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            XCTFail("the client called data(for:)")
            return try await inner.data(for: request)
        }

        func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse) {
            try await inner.data(for: request, limits: limits)
        }
    }

    /// A transport written for 1.0.x: only `data(for:)`, answering ten zero bytes.
    private struct TransportOf100: IPDataTransport {
        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            (Data(count: 10), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: [:])!)
        }
    }

    private let lookup = IPDataTransportResponse(
        statusCode: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"ip":"8.8.8.8"}"#.utf8))

    private func client(_ transport: any IPDataTransport, policy: RetryPolicy = .default) -> IPDataClient {
        IPDataClient(
            apiKey: "k",
            configuration: .init(
                connection: .transport(transport), retryPolicy: policy, deadline: 7, maximumResponseSize: 4_096))
    }

    func testATransportWithTheOneRequirementIsToldTheLimitsAndAnswers() async throws {
        let transport = ResponseTransport([lookup])
        let info = try await client(transport).lookup("8.8.8.8")
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertEqual(transport.told.withLock { $0 }, [IPDataTransportLimits(deadline: 7, maximumResponseSize: 4_096)])
    }

    func testTheClientReadsTheHeadersItActsOn() async throws {
        // A 429 whose Retry-After (in another letter case) the policy waits for, then a redirect
        // whose Location the error names.
        let transport = ResponseTransport([
            IPDataTransportResponse(statusCode: 429, headers: [("retry-after", "0")], body: Data()),
            IPDataTransportResponse(
                statusCode: 302, headers: [("LOCATION", "https://elsewhere.example/8.8.8.8")], body: Data()),
        ])
        let policy = RetryPolicy(maximumAttempts: 2, initialDelay: 0)
        do {
            _ = try await client(transport, policy: policy).lookup("8.8.8.8")
            XCTFail("a redirect returned a lookup")
        } catch IPDataError.unexpectedStatus(let status, let message) {
            XCTAssertEqual(status, 302)
            XCTAssertTrue(message.contains("https://elsewhere.example:443, another origin"), message)
        }
        XCTAssertEqual(transport.told.withLock { $0.count }, 2, "the 429 was retried")
    }

    func testAnAnswerFromAnotherOriginIsRefused() async throws {
        var moved = lookup
        moved.url = URL(string: "https://elsewhere.example/8.8.8.8")
        do {
            _ = try await client(ResponseTransport([moved])).lookup("8.8.8.8")
            XCTFail("an answer from another origin was used")
        } catch IPDataError.networkError(let error as URLError) {
            XCTAssertEqual(error.code, .badServerResponse)
        }
    }

    func testAnAnswerOverTheLimitIsRefusedWhateverTheTransport() async throws {
        let large = IPDataTransportResponse(statusCode: 200, body: Data(count: 5_000))
        do {
            _ = try await client(ResponseTransport([large])).lookup("8.8.8.8")
            XCTFail("an answer over the limit returned a lookup")
        } catch IPDataError.networkError(let error as URLError) {
            XCTAssertEqual(error.code, .dataLengthExceedsMaximum)
        }
    }

    func testTheDataCallsOf110GiveTheSameAnswerWithAnHTTPURLResponse() async throws {
        let transport = ResponseTransport([lookup, lookup])
        let request = URLRequest(url: URL(string: "https://api.ipdata.co/8.8.8.8")!)
        let limits = IPDataTransportLimits(deadline: 3, maximumResponseSize: 100)
        let (body, response) = try await transport.data(for: request, limits: limits)
        XCTAssertEqual(body, lookup.body)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 200)
        XCTAssertEqual(http.url, request.url)
        XCTAssertEqual(http.value(forHTTPHeaderField: "content-type"), "application/json")
        _ = try await transport.data(for: request)
        XCTAssertEqual(
            transport.told.withLock { $0 },
            [limits, IPDataTransportLimits(deadline: 60, maximumResponseSize: 10_485_760)],
            "data(for:limits:) passes its limits on; data(for:) alone has the defaults for a transport of your own")
    }

    func testATransportOf110AroundOneOfTheRequirementPassesTheClientsLimitsOn() async throws {
        let inner = ResponseTransport([lookup])
        let info = try await client(WrapperOf110(inner: inner)).lookup("8.8.8.8")
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertEqual(inner.told.withLock { $0 }, [IPDataTransportLimits(deadline: 7, maximumResponseSize: 4_096)])
    }

    /// A transport written before 1.1.0 has only `data(for:)`, which the default `data(for:limits:)` calls.
    func testATransportWithoutDataForLimitsIsStillCalled() async throws {
        let client = IPDataClient(
            apiKey: "k", configuration: IPDataClient.Configuration(connection: .transport(TransportOf100())))
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("ten zero bytes decoded as a lookup")
        } catch IPDataError.decodingFailed {
            // The ten bytes arrived: the transport was called.
        }
    }

    func testAnAnswerOfURLSessionKeepsItsHeadersAndItsURL() throws {
        let url = URL(string: "https://api.ipdata.co/8.8.8.8?api-key=k")!
        let redirected = URL(string: "https://api.ipdata.co/v2/8.8.8.8?api-key=k")!
        let made = try XCTUnwrap(
            HTTPURLResponse(url: redirected, statusCode: 429, httpVersion: nil, headerFields: ["Retry-After": "3"]))
        let answer = IPDataTransportResponse(made, body: Data("x".utf8), requestURL: url)
        XCTAssertEqual(answer.statusCode, 429)
        XCTAssertEqual(answer.url, redirected)
        XCTAssertEqual(answer.value(forHTTPHeaderField: "retry-after"), "3")
        XCTAssertEqual(answer.headers.map(\.name), ["Retry-After"])
        XCTAssertTrue(answer.urlResponse(for: URLRequest(url: url)) === made, "handed back as URLSession made it")
        let own = IPDataTransportResponse(made, body: Data(), requestURL: redirected)
        XCTAssertNil(own.url, "the request's own URL")
    }
}
