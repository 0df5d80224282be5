import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The key goes to the API's origin and nowhere else. The server's redirect mode answers
/// `/xCODE/…` with a redirect to a second origin (the backend's plain-http port, `/collect/…`,
/// the query with the key kept), which logs whatever reaches it; `/sCODE/…` redirects within
/// the origin.
final class RedirectTests: LocalServerTestCase {
    private static let codes = [301, 302, 307, 308]

    private enum SessionKind: String, CaseIterable {
        case owned, injected, shared
    }

    private func base(_ path: String) -> URL {
        URL(string: server.url("REDIRECT").absoluteString + "/" + path)!
    }

    private func client(_ kind: SessionKind, base: URL) -> IPDataClient {
        switch kind {
        case .owned: return IPDataClient(apiKey: server.key, baseURL: base, configuration: configuration())
        case .injected:
            return IPDataClient(apiKey: server.key, baseURL: base, session: URLSession(configuration: configuration()))
        case .shared: return IPDataClient(apiKey: server.key, baseURL: base)
        }
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
        for kind in SessionKind.allCases {
            for code in Self.codes {
                let label = "\(kind.rawValue) session, \(code)"
                let client = client(kind, base: base("x\(code)"))
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
        print("measured: 3 session kinds x 4 redirect codes x (lookup, bulk): 0 requests reached the other origin")
    }

    func testARedirectWithinTheOriginIsFollowedForALookupButNotForABulkRequest() async throws {
        for kind in SessionKind.allCases {
            let lookup = try await client(kind, base: base("s302")).lookup("8.8.8.8")
            XCTAssertEqual(lookup.ip, "8.8.8.8", kind.rawValue)
            let mark = server.mark()
            let error = await failure { try await client(kind, base: base("s307")).bulkLookup(["8.8.8.8"]) }
            guard case .unexpectedStatus(307, let message)? = error else {
                XCTFail("\(kind.rawValue): \(String(describing: error))")
                continue
            }
            XCTAssertTrue(message.contains("not sent again"), message)
            let resent = try await server.backendEntries(since: mark, atLeast: 0, timeout: 0) { $0.path == "/bulk" }
            XCTAssertEqual(resent.count, 0, "\(kind.rawValue): the POST was sent again: \(resent.map(\.bodyLen))")
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

    func testAnAnswerFromAnotherOriginIsRefused() async throws {
        let session = URLSession(configuration: configuration())
        defer { session.finishTasksAndInvalidate() }
        let client = IPDataClient(
            apiKey: server.key, baseURL: base("x302"), transport: FollowingTransport(session: session))
        let mark = server.mark()
        let error = await failure { try await client.lookup("8.8.8.8") }
        guard case .networkError(let underlying as URLError)? = error else {
            return XCTFail(String(describing: error))
        }
        XCTAssertEqual(underlying.code, .badServerResponse)
        XCTAssertTrue(error!.description.contains("may have gone there"), error!.description)
        // What the test shows: such a transport did hand the key over (which is why ours never follows).
        let leaked = try await collected(since: mark, atLeast: 1)
        XCTAssertEqual(leaked.first?.keyIn ?? [], ["query", "header"])
    }
}
