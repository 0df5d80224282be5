import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if AsyncHTTPClient
import AsyncHTTPClient
import IPDataAsyncHTTPClient
#endif

/// The key goes to the API's origin and nowhere else. The server's redirect mode answers
/// `/xCODE/…` with a redirect to a second origin (the backend's plain-http port, `/collect/…`,
/// the query with the key kept), which logs whatever reaches it; `/sCODE/…` redirects within
/// the origin.
final class RedirectTests: LocalServerTestCase {
    private static let codes = [301, 302, 303, 307, 308]

    private func base(_ path: String) -> URL {
        URL(string: server.url("REDIRECT").absoluteString + "/" + path)!
    }

    /// What reached the second origin since `mark`.
    private func collected(since mark: LocalAPIServer.Mark, atLeast count: Int = 0) async throws
        -> [LocalAPIServer.BackendEntry]
    {
        try await server.backendEntries(since: mark, atLeast: count, timeout: count == 0 ? 0 : 10) {
            $0.path?.hasPrefix("/collect/") == true
        }
    }

    func testNoSessionFollowsARedirectToAnotherOrigin() async throws {
        for kind in connectionKinds {
            for code in Self.codes {
                let label = "\(kind) connection, \(code)"
                let client = client(base("x\(code)"), connection: kind)
                let mark = server.mark()
                for (call, error) in [
                    ("lookup", await failure { try await client.lookup("8.8.8.8") }),
                    ("bulk", await failure { try await client.bulkLookup(["8.8.8.8", "1.1.1.1"]) }),
                ] {
                    guard case .unexpectedStatus(let status, let message)? = error else {
                        XCTFail("\(label), \(call): \(String(describing: error))")
                        continue
                    }
                    XCTAssertEqual(status, code, "\(label), \(call)")
                    XCTAssertTrue(message.contains("another origin"), message)
                    XCTAssertFalse(message.contains(server.key), message)
                }
                // A moment for a request that did leak to be logged, then: nothing reached it.
                try await Task.sleep(nanoseconds: 50_000_000)
                let leaked = try await collected(since: mark)
                XCTAssertEqual(leaked.count, 0, "\(label): the second origin received \(leaked.map(\.path))")
            }
        }
        print(
            "measured: \(transport.rawValue), \(connectionKinds.count) kinds of connection x \(Self.codes.count) "
                + "redirect codes x (lookup, bulk): 0 requests reached the other origin")
    }

    func testARedirectWithinTheOriginIsFollowedForALookupButNotForABulkRequest() async throws {
        for kind in connectionKinds {
            let lookup = try await client(base("s302"), connection: kind).lookup("8.8.8.8")
            XCTAssertEqual(lookup.ip, "8.8.8.8", "\(kind)")
            let mark = server.mark()
            let error = await failure { try await client(base("s307"), connection: kind).bulkLookup(["8.8.8.8"]) }
            guard case .unexpectedStatus(307, let message)? = error else {
                XCTFail("\(kind): \(String(describing: error))")
                continue
            }
            XCTAssertTrue(message.contains("not sent again"), message)
            let resent = try await server.backendEntries(since: mark, atLeast: 0, timeout: 0) { $0.path == "/bulk" }
            XCTAssertEqual(resent.count, 0, "\(kind): the POST was sent again: \(resent.map(\.bodyLen))")
        }
    }

    /// A transport of one's own that follows redirects, as a plain URLSession does: the client
    /// cannot stop it, but refuses its answer from another origin and says the key may be gone.
    private struct FollowingTransport: IPDataTransport {
        let session: URLSession

        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.unknown))
                    }
                }.resume()
            }
        }
    }

    /// A transport that follows redirects: a plain URLSession, or an `HTTPClient` that follows them
    /// (as `HTTPClient.shared` and Vapor's do, and which cannot be stopped per request).
    private func followingTransport() throws -> any IPDataTransport {
        switch transport {
        case .urlSession:
            let session = URLSession(configuration: configuration())
            addTeardownBlock { session.finishTasksAndInvalidate() }
            return FollowingTransport(session: session)
        case .asyncHTTPClient:
            #if AsyncHTTPClient
            let httpClient = HTTPClient(
                configuration: .init(redirectConfiguration: .follow(max: 5, allowCycles: false)))
            addTeardownBlock { try await httpClient.shutdown() }
            return AsyncHTTPClientTransport(client: httpClient)
            #else
            preconditionFailure("TestTransport.fromEnvironment() refuses asynchttpclient without the trait")
            #endif
        }
    }

    /// The transport reports where its answer came from, so the client refuses one from another
    /// origin and says the key may be gone.
    func testAnAnswerFromAnotherOriginIsRefused() async throws {
        let client = IPDataClient(
            apiKey: server.key,
            configuration: .init(baseURL: base("x302"), connection: .transport(try followingTransport())))
        let mark = server.mark()
        let error = await failure { try await client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail(String(describing: error))
        }
        XCTAssertEqual(underlying.code, .badServerResponse)
        XCTAssertTrue(error!.description.contains("may have gone there"), error!.description)
        XCTAssertFalse(error!.description.contains(server.key), error!.description)
        // What the test shows: such a transport did hand the key over (which is why ours never follows).
        let leaked = try await collected(since: mark, atLeast: 1)
        XCTAssertEqual(leaked.first?.keyIn ?? [], ["query", "header"])
    }
}
