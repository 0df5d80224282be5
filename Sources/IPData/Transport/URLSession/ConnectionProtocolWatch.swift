import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How many requests a client sends at once through a session it does not own
/// (`URLSession.shared`, or the caller's): as many as the session opens connections a host until
/// its answers show they come over HTTP/2, then `maximumConcurrentRequests`.
///
/// Over HTTP/2 a session multiplexes every request over one connection and queues none; over
/// HTTP/1.1 it queues what its connections cannot carry, with each request's timeout running (see
/// `RequestSlots`). No platform tells which one an answer came over (`HTTPURLResponse` has no
/// HTTP version, and Linux delivers no task metrics), but HTTP/2 forbids the headers that manage
/// an HTTP/1 connection (RFC 9113, 8.2.2), which HTTP/1.1 servers send: `Connection`,
/// `Keep-Alive`, `Transfer-Encoding`, `Proxy-Connection`. So an answer with none of them raises
/// the limit, and the first answer with one lowers it back for good: a server that shows HTTP/1.1
/// once is never trusted with more again.
final class ConnectionProtocolWatch: Sendable {
    private enum Seen {
        case nothing
        case multiplexing
        case http1
    }

    let slots: RequestSlots
    /// The session's `httpMaximumConnectionsPerHost`: what HTTP/1.1 carries without a queue.
    let connectionLimit: Int
    /// The client's `maximumConcurrentRequests`: what HTTP/2 carries.
    let multiplexedLimit: Int
    private let seen = Locked(Seen.nothing)

    init(slots: RequestSlots, connectionLimit: Int, multiplexedLimit: Int) {
        self.slots = slots
        self.connectionLimit = connectionLimit
        self.multiplexedLimit = multiplexedLimit
    }

    /// Looks at an answer from the server, and changes the client's limit if it tells something new.
    func observe(_ response: URLResponse) {
        guard let response = response as? HTTPURLResponse else { return }
        // Once HTTP/1.1 has shown, nothing an answer says changes the limit: no header to read.
        if seen.withLock({ $0 == .http1 }) { return }
        let http1 = Self.showsHTTP1(response)
        let limit = seen.withLock { seen -> Int? in
            switch (seen, http1) {
            case (.http1, _), (.multiplexing, false):
                return nil
            case (_, true):
                seen = .http1
                return connectionLimit
            case (.nothing, false):
                seen = .multiplexing
                return multiplexedLimit
            }
        }
        if let limit { slots.setLimit(limit) }
    }

    /// The headers only HTTP/1 sends: those about the connection the answer came over.
    private static let http1Headers = ["connection", "keep-alive", "transfer-encoding", "proxy-connection"]

    /// Whether `response` carries a header that only an HTTP/1 connection has.
    static func showsHTTP1(_ response: HTTPURLResponse) -> Bool {
        response.allHeaderFields.keys.contains { key in
            // Their lengths first: most answers' headers are none of them, and need no lowercasing.
            guard let name = key as? String, [10, 16, 17].contains(name.utf8.count) else { return false }
            return http1Headers.contains(name.lowercased())
        }
    }
}
