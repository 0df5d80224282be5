import Foundation
import IPDataTestSupport
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocol` test double: answers every request of a session that lists it in
/// `protocolClasses` with the current stub, and records what was sent.
///
/// URLSession creates the protocol instances itself, so the stub and the record live in one
/// lock-protected store. Tests in one process run one at a time (XCTest's default); each test
/// installs its stub in `setUp` through `MockURLProtocol.reset()`.
final class MockURLProtocol: URLProtocol {
    /// What the double answers: an HTTP response, or a transport error.
    enum Answer: Sendable {
        case http(status: Int, body: Data, headers: [String: String])
        case failure(URLError)
        /// No answer at all, until the request is cancelled.
        case never
    }

    /// A request as the double saw it, with its body read from `httpBody` or `httpBodyStream`.
    struct Recorded: Sendable {
        let url: URL
        let method: String
        let headers: [String: String]
        let body: Data?
    }

    typealias Stub = @Sendable (_ request: Recorded, _ attempt: Int) -> Answer

    private struct State {
        var stub: Stub = { _, _ in .failure(URLError(.resourceUnavailable)) }
        var requests: [Recorded] = []
        var stoppedRequests = 0
    }

    private static let state = Locked(State())

    static func reset() {
        state.withLock { $0 = State() }
    }

    /// Answers the n-th request (counting from 1) with `stub(request, n)`.
    static func stub(_ stub: @escaping Stub) {
        state.withLock { $0.stub = stub }
    }

    static func respond(status: Int = 200, body: Data, headers: [String: String] = [:]) {
        stub { _, _ in .http(status: status, body: body, headers: headers) }
    }

    static var requests: [Recorded] {
        state.withLock { $0.requests }
    }

    /// How many requests URLSession stopped before the double answered them (cancellations).
    static var stoppedRequests: Int {
        state.withLock { $0.stoppedRequests }
    }

    /// A session whose requests all go to this double; nothing else is affected.
    static func makeSession() -> URLSession {
        URLSession(configuration: configuration())
    }

    static func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [MockURLProtocol.self]
        // No URLCache: on Linux, cancelling a task that a cache lookup delayed can stop the
        // process (see URLSessionQuirks.ownedSessionConfiguration).
        configuration.urlCache = nil
        return configuration
    }

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let recorded = Recorded(
            url: request.url!,
            method: request.httpMethod ?? "GET",
            headers: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody ?? request.httpBodyStream.map(Self.readAll))
        let (stub, attempt) = Self.state.withLock { state -> (Stub, Int) in
            state.requests.append(recorded)
            return (state.stub, state.requests.count)
        }
        switch stub(recorded, attempt) {
        case .http(let status, let body, let headers):
            let response = HTTPURLResponse(
                url: recorded.url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: body)
            client?.urlProtocolDidFinishLoading(self)
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .never:
            isWaiting.withLock { $0 = true }
        }
    }

    /// Set while a `.never` answer is outstanding, so `stopLoading` can tell a cancellation.
    private let isWaiting = Locked(false)

    override func stopLoading() {
        if isWaiting.withLock({ $0 }) {
            Self.state.withLock { $0.stoppedRequests += 1 }
        }
    }

    /// Apple platforms hand a POST body to a `URLProtocol` as a stream, Linux as `httpBody`.
    private static func readAll(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
