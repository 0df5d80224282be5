import Foundation

/// The requests an MCP session may send (`ipdata mcp --max-requests`): the requests the client
/// reports sending (`RequestTally`, every retry included) plus those that calls still running
/// were granted.
///
/// A call first estimates its requests as the dry run does (the disk cache and the local answers
/// for private and reserved addresses cost nothing) and asks for them with `reserve(_:)`; one
/// that would go beyond the budget is refused before it sends anything.
final class RequestBudget: Sendable {
    /// The most requests the session may send.
    let limit: Int
    private let tally: RequestTally
    /// What the tally had counted when the session began.
    private let start: Int
    /// Requests granted to calls that are still running.
    private let reserved = Locked(0)

    init(limit: Int, tally: RequestTally) {
        self.limit = limit
        self.tally = tally
        start = tally.sent
    }

    /// The requests sent so far in this session.
    var used: Int { tally.sent - start }

    /// The requests that calls may still be granted.
    var left: Int {
        reserved.withLock { max(0, limit - used - $0) }
    }

    /// A refusal: the call needs `needed` requests, and only `left` of the budget remain.
    struct Refusal: Error, CustomStringConvertible {
        let needed: Int
        let left: Int
        let limit: Int

        var description: String {
            let requests = needed == 1 ? "1 request" : "\(needed) requests"
            return "refused: this call needs \(requests), and the session's request budget (--max-requests "
                + "\(limit)) has \(left) left; nothing was sent. Cached and private addresses cost nothing: "
                + "the estimate tool tells what a list costs"
        }
    }

    /// Grants `requests` to a call, or throws a `Refusal` when they are more than are left.
    /// The caller gives them back with `release(_:)` when the call ends; what it sent stays
    /// counted in the tally.
    func reserve(_ requests: Int) throws {
        try reserved.withLock { reserved in
            let left = max(0, limit - used - reserved)
            guard requests <= left else { throw Refusal(needed: requests, left: left, limit: limit) }
            reserved += requests
        }
    }

    /// Gives back what `reserve(_:)` granted, when the call has ended.
    func release(_ requests: Int) {
        reserved.withLock { $0 -= requests }
    }
}
