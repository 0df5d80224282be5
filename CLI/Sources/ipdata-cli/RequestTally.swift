import Foundation
import IPData

/// The requests of a run, as its client reports each one ending (`SentRequestObserver`),
/// from any thread: every attempt counts, retries included, so the summary says what the server
/// saw; and the answers in which the API limited the rate (429), with the last `Retry-After`.
///
/// One run is one process: `run` is the tally every client of the process reports to, which the
/// summary line and the last line of the run read.
final class RequestTally: Sendable {
    private struct Counts {
        var sent = 0
        var rateLimited = 0
        var lastRetryAfter: String?
    }

    /// The tally of this process's run.
    static let run = RequestTally()

    private let counts = Locked(Counts())

    /// Counts `request`; the client's observer calls it (`SentRequestObserver`). A request that failed before
    /// any connection could be made (refused, no such host, a failed TLS handshake) was not sent.
    func record(_ request: SentRequest) {
        counts.withLock { counts in
            if request.mayHaveReachedTheServer { counts.sent += 1 }
            if request.statusCode == 429 {
                counts.rateLimited += 1
                if let retryAfter = request.retryAfter { counts.lastRetryAfter = retryAfter }
            }
        }
    }

    /// The requests that may have reached the server so far, every retry included.
    var sent: Int {
        counts.withLock { $0.sent }
    }

    /// How many answers were 429 (Too Many Requests).
    var rateLimited: Int {
        counts.withLock { $0.rateLimited }
    }

    /// The line that says the API limited the rate, when it did: `the API limited the rate: 4
    /// answers were 429 Too Many Requests (the last said Retry-After: 30)`; nil when no answer was
    /// a 429.
    var rateLimitText: String? {
        let (count, retryAfter) = counts.withLock { ($0.rateLimited, $0.lastRetryAfter) }
        guard count > 0 else { return nil }
        let answers = count == 1 ? "1 answer was" : "\(count) answers were"
        // The header is the server's text: kept to one short line.
        let wait = retryAfter.map { " (the last said Retry-After: \(String($0.prefix(40))))" } ?? ""
        return "the API limited the rate: \(answers) 429 Too Many Requests\(wait)"
    }
}
