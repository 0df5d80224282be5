import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stand-in for the ipdata API, for the tests of apps that use this SDK: clients made by
/// `client()` get their answers from here, with no key, no network and no global state.
///
/// A new sandbox answers the address scenarios (`IPDataScenario.addresses`); `register(_:)` adds
/// others, and `IPDataSandbox(failing:)` makes one that fails as an error scenario says. Every
/// request the clients send is recorded in `requests`. Each sandbox is independent, so tests can
/// run in parallel, each with its own.
///
/// ```swift
/// let sandbox = IPDataSandbox()
/// let client = sandbox.client()
/// let info = try await client.lookup(IPDataScenario.torExit.ip!)
/// XCTAssertEqual(info.threat?.isTor, true)
/// XCTAssertEqual(sandbox.requests.count, 1)
/// ```
///
/// Any other public address answers with the `residential` sample, its `ip` replaced; private and
/// reserved addresses, invalid text, unknown ASNs and over-long bulk lists get the API's errors,
/// in the API's words: the sandbox reads each request as the API does, by the client's own rules
/// for addresses and ASNs (`IPAddress`, `ASNumber`), and answers with the client's own copy of the
/// API's messages (`APIMessage`). The JSON the sandbox
/// writes itself (a `fields` selection, a bulk answer, an object field) has its keys sorted, so
/// every run gets the same bytes.
public final class IPDataSandbox: IPDataTransport, @unchecked Sendable {
    /// A request a client sent to the sandbox.
    public struct Request: Sendable, Equatable {
        /// `GET` or `POST`.
        public let method: String
        /// The path, percent-decoded: `/8.8.8.8`, `/8.8.8.8/asn`, `/bulk`, `/AS15169` or `/`.
        public let path: String
        /// The `fields` the request asked for, or nil for all.
        public let fields: [String]?
        /// The addresses a `POST /bulk` carried; empty for other requests.
        public let bulkAddresses: [String]
    }

    private struct State {
        var answers: [String: (status: Int, body: Data)] = [:]
        var failure: IPDataScenario?
        var delay: Double = 0
        var bulkRefused = false
        var requests: [Request] = []
        var ownAddress = IPDataScenario.residential.ip!
    }

    /// The address `lookup()` with no argument answers for, the device's own: the `residential`
    /// sample's by default. Any address the sandbox answers will do.
    public var ownAddress: String {
        get { withState { $0.ownAddress } }
        set { withState { $0.ownAddress = newValue } }
    }

    // @unchecked Sendable (the class): `state`, its one mutable property, is only used under `lock`.
    private let lock = NSLock()
    private var state = State()

    /// A sandbox answering `scenarios` (by default every address scenario).
    public init(scenarios: [IPDataScenario] = IPDataScenario.addresses) {
        for scenario in scenarios { register(scenario) }
    }

    /// A sandbox answering the address scenarios, where `scenario` (one of
    /// `IPDataScenario.errors`) fails the requests it is about.
    public convenience init(failing scenario: IPDataScenario) {
        self.init()
        register(scenario)
    }

    /// A client whose every request this sandbox answers.
    public func client(apiKey: String = "sandbox-key", cache: LookupCache? = nil) -> IPDataClient {
        IPDataClient(
            apiKey: apiKey, configuration: IPDataClient.Configuration(connection: .transport(self), cache: cache))
    }

    /// Adds a scenario: an address answer, or an error for the requests it is about.
    public func register(_ scenario: IPDataScenario) {
        withState { state in
            switch scenario.reply {
            case .lookup(let body):
                if let ip = scenario.ip { state.answers[Self.key(ip)] = (200, Data(body.utf8)) }
            case .apiError(let status, let message, let scope, _):
                switch scope {
                case .everyRequest: state.failure = scenario
                case .bulkRequests: state.bulkRefused = true
                case .address, .asn:
                    if let ip = scenario.ip { state.answers[Self.key(ip)] = (status, Self.messageBody(message)) }
                }
            case .networkFailure:
                state.failure = scenario
            case .slow(let seconds):
                state.delay = seconds
            }
        }
    }

    /// Answers lookups of `ip` with `body` (a JSON lookup object, or an error body for another
    /// `status`); in a bulk lookup, `body` is that address's element.
    public func register(body: Data, status: Int = 200, for ip: String) {
        withState { $0.answers[Self.key(ip)] = (status, body) }
    }

    /// Every request sent so far, oldest first.
    public var requests: [Request] {
        withState { $0.requests }
    }

    /// Forgets the requests recorded so far.
    public func removeAllRequests() {
        withState { $0.requests = [] }
    }

    /// Answers one request as the API would (see the type's description), at once: the answers
    /// are far within any `limits`. (`data(for:)` gives the same answer with an `HTTPURLResponse`.)
    public func response(for request: URLRequest, limits: IPDataTransportLimits) async throws
        -> IPDataTransportResponse
    {
        let url = request.url ?? URL(string: "https://sandbox.invalid/")!
        let path = url.path.isEmpty ? "/" : url.path
        // Split before decoding, as a server does: an encoded `/` (`%2F`) is part of a segment.
        let encodedPath = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? path
        let segments = encodedPath.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let fields = APICall.fields(in: url)
        let method = request.httpMethod ?? "GET"
        let call: APICall?
        let refusal: IPDataError?
        do {
            (call, refusal) = (try APICall(method: method, pathSegments: segments, body: request.httpBody), nil)
        } catch {
            (call, refusal) = (nil, error as? IPDataError)
        }
        let bulkAddresses: [String]
        if case .bulk(let addresses) = call { bulkAddresses = addresses } else { bulkAddresses = [] }

        let (failure, bulkRefused, delay, ownAddress) = withState {
            state -> (IPDataScenario?, Bool, Double, String) in
            state.requests.append(Request(method: method, path: path, fields: fields, bulkAddresses: bulkAddresses))
            let failure = state.failure.flatMap {
                $0.requestNumbers?.contains(state.requests.count) == false ? nil : $0
            }
            return (failure, state.bulkRefused, state.delay, state.ownAddress)
        }
        if delay > 0 {
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch {
                throw URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: url])
            }
        }
        if let failure {
            switch failure.reply {
            case .networkFailure(let code): throw URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url])
            case .apiError(let status, let message, _, let headers):
                return Self.response(status, Self.messageBody(message), headers: headers)
            case .lookup, .slow: break
            }
        }
        if case .badRequest(let message)? = refusal { return Self.response(400, Self.messageBody(message)) }
        switch call {
        case .ownAddress:
            return Self.response(200, Self.select(fields, from: answer(for: ownAddress).body))
        case .bulk(let addresses):
            if bulkRefused { return Self.response(403, Self.messageBody(APIMessage.bulkNotInPlan)) }
            return bulk(addresses, fields: fields)
        case .asn(let asn):
            return self.asn(asn)
        case .address(let address):
            let answer = answer(for: address)
            return Self.response(
                answer.status, answer.status == 200 ? Self.select(fields, from: answer.body) : answer.body)
        case .field(let address, let field):
            return self.field(field, of: answer(for: address))
        case nil:
            return Self.response(404, Self.messageBody("Not found."))
        }
    }

    // MARK: - Answers

    private func answer(for ip: String) -> (status: Int, body: Data) {
        if let registered = withState({ $0.answers[Self.key(ip)] }) { return registered }
        guard let address = IPAddress(ip) else { return (400, Self.messageBody(APIMessage.invalidAddress(ip))) }
        switch address.scope {
        case .private: return (400, Self.messageBody(APIMessage.privateAddress(ip)))
        case .reserved: return (400, Self.messageBody(APIMessage.reservedAddress(ip)))
        case .public:
            var object =
                (try? JSONSerialization.jsonObject(with: Data(ScenarioBodies.residential.utf8))) as? [String: Any]
            object?["ip"] = ip
            return (200, Self.json(object ?? [:]) ?? Data())
        }
    }

    private func bulk(_ addresses: [String], fields: [String]?) -> IPDataTransportResponse {
        guard addresses.count <= APIMessage.bulkLimit else {
            return Self.response(400, Self.messageBody(APIMessage.tooManyBulkAddresses))
        }
        let elements = addresses.map { address -> Any in
            let answer = answer(for: address)
            let body = answer.status == 200 ? Self.select(fields, from: answer.body) : answer.body
            return (try? JSONSerialization.jsonObject(with: body)) ?? [:]
        }
        return Self.response(200, Self.json(elements) ?? Data())
    }

    private func asn(_ asn: String) -> IPDataTransportResponse {
        if let registered = withState({ $0.answers[Self.key(asn)] }) {
            return Self.response(registered.status, registered.body)
        }
        if asn == "AS15169" { return Self.response(200, Data(ScenarioBodies.asn15169.utf8)) }
        return Self.response(404, Self.messageBody(APIMessage.asnNotFound(asn)))
    }

    /// `GET /{ip}/{field}`: objects and arrays as JSON, strings as plain text, other values as text.
    private func field(_ name: String, of answer: (status: Int, body: Data)) -> IPDataTransportResponse {
        guard answer.status == 200 else { return Self.response(answer.status, answer.body) }
        let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
        guard let value = object[name] else {
            return Self.response(400, Self.messageBody(APIMessage.invalidField(name)))
        }
        switch value {
        case let text as String:
            return Self.response(200, Data(text.utf8), contentType: "text/plain; charset=utf-8")
        case is [String: Any], is [Any]:
            return Self.response(200, Self.json(value) ?? Data())
        default:
            // Numbers and booleans come back as their JSON text (37.386, false).
            let text = Self.json(value) ?? Data("null".utf8)
            return Self.response(200, text, contentType: "text/plain; charset=utf-8")
        }
    }

    // MARK: - Helpers

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// The key of a registered answer: an address in its canonical form (`2001:DB8::1` and
    /// `2001:db8:0:0:0:0:0:1` are one), an ASN as its path (`as15169` is `AS15169`), else the text.
    private static func key(_ text: String) -> String {
        IPAddress(text)?.description ?? ASNumber.pathSegment(text) ?? text.lowercased()
    }

    /// Only the top-level keys in `fields`, as `fields=` does; everything when `fields` is nil.
    private static func select(_ fields: [String]?, from body: Data) -> Data {
        guard let fields, !fields.isEmpty,
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        else { return body }
        let selected = object.filter { fields.contains($0.key) }
        return Self.json(selected) ?? body
    }

    private static func messageBody(_ message: String) -> Data {
        json(["message": message]) ?? Data()
    }

    /// `value` as JSON text with its keys sorted, so that an answer is the same bytes in every
    /// run (a dictionary's order changes from run to run), and `/` unescaped, as the API writes it.
    private static func json(_ value: Any) -> Data? {
        try? JSONSerialization.data(
            withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    }

    private static func response(
        _ status: Int, _ body: Data, contentType: String = "application/json", headers: [String: String] = [:]
    ) -> IPDataTransportResponse {
        IPDataTransportResponse(
            statusCode: status,
            headers: [(name: "Content-Type", value: contentType)]
                + headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            body: body)
    }
}
