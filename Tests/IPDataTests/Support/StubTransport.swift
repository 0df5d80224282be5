import Foundation

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The library's one stand-in transport: records every request it is sent, with the limits it was
/// told, and answers each from a script, in order (or from a closure of the request).
///
/// It implements `data(for:limits:)`, so the client holds it to the deadline and the size limit
/// as it holds any transport of the caller's. A reply may wait before it answers; so does every
/// request while the stub holds them, until `releaseHeld()`. A wait that is cancelled throws
/// `URLError(.cancelled)` and counts in `cancellations`. The tests of which requirement a
/// transport implements have their own types (`TransportRequirementTests`).
final class StubTransport: IPDataTransport {
    /// One scripted answer: an HTTP answer, or a failure with no answer.
    struct Reply: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        var body = Data("{}".utf8)
        /// Where the answer came from when it is not the request's URL (a followed redirect).
        var url: URL?
        /// Thrown instead of answering.
        var failure: URLError.Code?
        /// Seconds to wait before answering.
        var delay: TimeInterval = 0

        /// An answer with `status`, `headers` and `body` as text.
        static func status(_ status: Int, headers: [String: String] = [:], body: String = "{}") -> Reply {
            Reply(status: status, headers: headers, body: Data(body.utf8))
        }

        /// A 200 answer of `body`.
        static func body(_ body: Data) -> Reply {
            Reply(body: body)
        }

        /// No answer: the request fails with `code`.
        static func failure(_ code: URLError.Code) -> Reply {
            Reply(failure: code)
        }

        /// This reply, `seconds` later.
        func delayed(_ seconds: TimeInterval) -> Reply {
            var reply = self
            reply.delay = seconds
            return reply
        }
    }

    private struct State {
        var script: [Reply]
        var requests: [URLRequest] = []
        var limits: [IPDataTransportLimits] = []
        var isHolding: Bool
        var held: [CheckedContinuation<Void, Never>] = []
        var inFlight = 0
        var mostInFlight = 0
        var cancellations = 0
    }

    private let state: Locked<State>
    private let answer: (@Sendable (URLRequest) -> Reply)?
    private let otherwise: Reply

    /// Answers with `script`, one reply a request, then with `otherwise`; holds every request
    /// until `releaseHeld()` when `holding`.
    init(_ script: [Reply] = [], otherwise: Reply = .status(200), holding: Bool = false) {
        state = Locked(State(script: script, isHolding: holding))
        answer = nil
        self.otherwise = otherwise
    }

    /// Answers each request with what `answer` makes of it.
    init(holding: Bool = false, answer: @escaping @Sendable (URLRequest) -> Reply) {
        state = Locked(State(script: [], isHolding: holding))
        self.answer = answer
        otherwise = .status(200)
    }

    /// Every request sent, in order.
    var requests: [URLRequest] { state.withLock { $0.requests } }
    /// How many requests were sent.
    var count: Int { state.withLock { $0.requests.count } }
    /// The limits the client gave with each request, in order.
    var limits: [IPDataTransportLimits] { state.withLock { $0.limits } }
    /// How many requests wait for `releaseHeld()` now.
    var held: Int { state.withLock { $0.held.count } }
    /// The most requests that were in the stub at once.
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    /// How many requests were cancelled while they waited.
    var cancellations: Int { state.withLock { $0.cancellations } }

    /// Lets the requests held now go on; later ones are held again, if the stub holds requests.
    func releaseHeld() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse) {
        let (scripted, isHolding) = state.withLock { state -> (Reply?, Bool) in
            state.requests.append(request)
            state.limits.append(limits)
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            return (state.script.isEmpty ? nil : state.script.removeFirst(), state.isHolding)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        let reply = scripted ?? answer?(request) ?? otherwise
        if isHolding {
            await withCheckedContinuation { continuation in state.withLock { $0.held.append(continuation) } }
        }
        if reply.delay > 0 {
            do {
                try await Task.sleep(nanoseconds: UInt64(reply.delay * 1_000_000_000))
            } catch {
                state.withLock { $0.cancellations += 1 }
                throw URLError(.cancelled)
            }
        }
        if let failure = reply.failure { throw URLError(failure) }
        let url = reply.url ?? request.url ?? IPDataClient.defaultBaseURL
        let response = HTTPURLResponse(
            url: url, statusCode: reply.status, httpVersion: nil, headerFields: reply.headers)!
        return (reply.body, response)
    }
}
