#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import IPData
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `IPDataTransport` on AsyncHTTPClient (SwiftNIO), the HTTP client of server-side Swift:
/// Vapor and Hummingbird apps pass the `HTTPClient` they already have.
///
/// ```swift
/// let client = IPDataClient(
///     apiKey: "YOUR_API_KEY", configuration: .init(connection: .transport(AsyncHTTPClientTransport())))
/// ```
///
/// It never shuts down an `HTTPClient` it was given. It reads each answer as it arrives and
/// stops past the smaller of its `maximumResponseSize` and the `IPDataClient`'s, so a huge body
/// never fills memory. Failures come back as the `URLError`s the client understands:
/// `.timedOut`, `.cannotConnectToHost`, `.networkConnectionLost` (a connection that closed before
/// the answer: the client resends a bulk request once), `.secureConnectionFailed`, `.cancelled`.
/// Cancelling the calling task cancels the request. Each error's message is one line that names
/// the server by its origin (`Could not connect to https://api.ipdata.co:443: connection
/// refused.`); none carries the request's path, its query or the API key.
///
/// Redirects follow the `HTTPClient`'s configuration, which cannot be changed per request.
/// `AsyncHTTPClientTransport()` uses `sharedClient`, which follows none itself: the transport
/// then follows a lookup's redirect within the API's origin, as URLSession does. A client that follows
/// redirects (`HTTPClient.shared` does, as do Vapor's and Hummingbird's defaults) would carry the
/// key to wherever a redirect points: give this transport a client made with
/// `redirectConfiguration: .disallow`. If a client does follow a redirect to another origin,
/// the answer carries that origin's URL and `IPDataClient` refuses it with `networkError`.
public struct AsyncHTTPClientTransport: IPDataTransport {
    /// The client that carries the requests.
    public let client: HTTPClient
    /// The most seconds a request may take, from the moment it is sent to the last byte of its
    /// answer; through an `IPDataClient`, its `IPDataClient.Configuration.deadline` if that is
    /// shorter. Past it the request fails with `URLError(.timedOut)`. 10 s by default: a server's
    /// default, since the API answers a lookup, or a bulk request of 100 addresses, well within
    /// it, while a silent API would otherwise hold each waiting lookup (and what it holds: a
    /// middleware's pending lookups, a request's task) for URLSession's 60 s.
    public let timeout: TimeInterval
    /// The most bytes an answer may have; reading stops there with
    /// `URLError(.dataLengthExceedsMaximum)`. Through an `IPDataClient` the smaller of this and
    /// its `IPDataClient.Configuration.maximumResponseSize` applies (both 10 MiB by default), so
    /// lowering the client's lowers this transport's too.
    public let maximumResponseSize: Int
    /// The event loop of `client`'s group that handles every request of this transport, chosen
    /// when it is made. AsyncHTTPClient opens a new connection on it, so an answer is read and
    /// handed over on the one thread of the connection that carries it. (Left to AsyncHTTPClient,
    /// each request would take the group's next event loop, and most answers would cross to
    /// another thread, which costs requests per second: see BENCHMARKS.md. A connection to the
    /// API that an `HTTPClient` of yours already has on another loop is still used.) Over
    /// HTTP/1.1 every connection of the transport is opened on this loop too, where they used to
    /// be spread over the group, at no measured cost. Nil, and the choice left to
    /// AsyncHTTPClient, for a group that does not list the loop it hands out, which
    /// AsyncHTTPClient would refuse.
    let eventLoop: (any EventLoop)?

    /// A process-wide client for this SDK: HTTP/2 where the server offers it, no redirects
    /// followed, no retried connection attempts (the `IPDataClient`'s retry policy decides), on
    /// SwiftNIO's shared event loop group. It is never shut down, like `HTTPClient.shared`.
    public static let sharedClient = HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)

    /// The configuration of `sharedClient`, for an `HTTPClient` of your own (your event loop
    /// group, your shutdown): no redirects followed, so the key never leaves the API's origin;
    /// HTTP/2 where the server offers it; a connection attempt made once, so a refused or
    /// unreachable API fails the request at once and the `IPDataClient`'s retry policy decides
    /// (AsyncHTTPClient's default tries again until the 10 s connect timeout); 10 s to connect.
    ///
    /// ```swift
    /// let httpClient = HTTPClient(configuration: AsyncHTTPClientTransport.clientConfiguration)
    /// ```
    public static var clientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.httpVersion = .automatic
        return configuration
    }

    /// `clientConfiguration` with the HTTPS proxy that `environment` names, read as curl and
    /// URLSession on Linux read it: `https_proxy`, else `HTTPS_PROXY`, else `all_proxy` or
    /// `ALL_PROXY`, an `http://` URL with a host, a port (1080 when left out) and, optionally,
    /// a user and password (sent as `Proxy-Authorization: Basic`). None when `no_proxy` or
    /// `NO_PROXY` lists `host` (a name, a domain with or without its leading dot, or `*`), or when
    /// the variable is unset or not such a URL. The requests go through the proxy with `CONNECT`,
    /// so the proxy sees the API's host and port, never the key.
    ///
    /// An `HTTPClient` has one proxy for every request, so `host` is the API's host, which
    /// `no_proxy` is compared with once, here.
    ///
    /// ```swift
    /// let httpClient = HTTPClient(
    ///     configuration: AsyncHTTPClientTransport.clientConfiguration(proxyFrom: ProcessInfo.processInfo.environment))
    /// ```
    public static func clientConfiguration(
        proxyFrom environment: [String: String], host: String = "api.ipdata.co"
    ) -> HTTPClient.Configuration {
        var configuration = clientConfiguration
        configuration.proxy = proxy(from: environment, host: host)
        return configuration
    }

    /// The proxy of `clientConfiguration(proxyFrom:host:)`.
    static func proxy(from environment: [String: String], host: String) -> HTTPClient.Configuration.Proxy? {
        let names = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        guard let text = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }),
            let url = URL(string: text.contains("://") ? text : "http://" + text), url.scheme?.lowercased() == "http",
            let proxyHost = url.host, !proxyHost.isEmpty
        else { return nil }
        let exceptions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let target = host.lowercased()
        for exception in exceptions where !exception.isEmpty {
            let domain = exception.hasPrefix(".") ? String(exception.dropFirst()) : exception
            if exception == "*" || target == domain || target.hasSuffix("." + domain) { return nil }
        }
        let port = url.port ?? 1080
        guard let user = url.user else { return .server(host: proxyHost, port: port) }
        let credentials = "\(user.removingPercentEncoding ?? user):\(url.password?.removingPercentEncoding ?? "")"
        return .server(
            host: proxyHost, port: port,
            authorization: .basic(credentials: Data(credentials.utf8).base64EncodedString()))
    }

    /// A transport over `client`, which it never shuts down. By default `sharedClient`; with a
    /// client of yours, see the redirects in the type's description.
    public init(
        client: HTTPClient = AsyncHTTPClientTransport.sharedClient, timeout: TimeInterval = 10,
        maximumResponseSize: Int = 10 * 1_048_576
    ) {
        self.client = client
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        let loop = client.eventLoopGroup.any()
        self.eventLoop = client.eventLoopGroup.makeIterator().contains { $0 === loop } ? loop : nil
    }

    /// Sends `request` through `client` and returns the whole answer, whatever its status, held
    /// to this transport's own `timeout` and `maximumResponseSize` (see `data(for:limits:)`).
    ///
    /// Throws a `URLError` when no whole answer arrives (see the type's description).
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(
            for: request, limits: IPDataTransportLimits(deadline: timeout, maximumResponseSize: maximumResponseSize))
    }

    /// Sends `request` through `client` and returns the whole answer, whatever its status, held
    /// to the smaller of each limit: the client's (`limits`) and this transport's own.
    ///
    /// `IPDataClient` gives `response(for:limits:)` its `IPDataClient.Configuration.maximumResponseSize`
    /// and `deadline`, so one value governs both: reading stops past
    /// `min(maximumResponseSize, limits.maximumResponseSize)` bytes with
    /// `URLError(.dataLengthExceedsMaximum)`, and the whole answer must arrive within
    /// `min(timeout, limits.deadline)` seconds or the request fails with `URLError(.timedOut)`.
    /// (`HTTPClient` ends the request at that deadline, so the client needs no watch of its own.)
    ///
    /// As URLSession does, a `GET` whose connection is lost before its answer
    /// (`.networkConnectionLost`: a pooled connection the server closed as the request went out)
    /// is sent once more, and a `GET` redirected within its origin (scheme, host and port) is
    /// followed, up to 5 times; a redirect to another origin comes back as the answer.
    ///
    /// Throws a `URLError` when no whole answer arrives (see the type's description).
    public func data(for request: URLRequest, limits: IPDataTransportLimits) async throws -> (Data, URLResponse) {
        let (answer, url) = try await exchange(request, limits: limits)
        return (answer.body, Self.urlResponse(answer.head, url: url))
    }

    /// The answer to `request`, as `data(for:limits:)` gets it, handed to the client as its
    /// status, its headers (as AsyncHTTPClient read them: no `HTTPURLResponse` is made) and its
    /// body, with the URL that gave it when a redirect within the origin was followed.
    public func response(for request: URLRequest, limits: IPDataTransportLimits) async throws
        -> IPDataTransportResponse
    {
        let (answer, url) = try await exchange(request, limits: limits)
        return IPDataTransportResponse(
            statusCode: Int(answer.head.status.code), headers: Array(answer.head.headers), body: answer.body,
            url: url == request.url ? nil : url)
    }

    /// The answer to `request`, and the URL that gave it: a `GET` whose connection is lost before
    /// its answer is sent once more, and one redirected within its origin is followed (see
    /// `data(for:limits:)`).
    private func exchange(_ request: URLRequest, limits: IPDataTransportLimits) async throws -> (
        AnswerCollector.Answer, URL
    ) {
        guard var url = request.url else { throw URLError(.badURL) }
        let isGET = (request.httpMethod ?? "GET") == "GET"
        var resent = false
        var redirects = 0
        while true {
            let answer: AnswerCollector.Answer
            do {
                answer = try await send(request, to: url, limits: limits)
            } catch let error as URLError where isGET && error.code == .networkConnectionLost && !resent {
                resent = true
                continue
            }
            let answered = answer.url ?? url
            guard isGET, redirects < 5, let next = Self.redirectWithinTheOrigin(answer.head, from: answered) else {
                return (answer, answered)
            }
            redirects += 1
            url = next
        }
    }

    /// Where a redirect answer points, when that is within the origin (scheme, host and port) of
    /// the URL it answered.
    static func redirectWithinTheOrigin(_ head: HTTPResponseHead, from: URL) -> URL? {
        guard [301, 302, 303, 307, 308].contains(head.status.code), let location = head.headers.first(name: "Location"),
            let target = URL(string: location, relativeTo: from)?.absoluteURL, hasSameOrigin(target, as: from)
        else { return nil }
        return target
    }

    /// One request, one answer, within `limits`.
    ///
    /// Sent through `HTTPClient`'s delegate API rather than its async `execute`: its deadline
    /// ends the whole request, body included (the async API's ends at the head), and its task is
    /// cancelled from anywhere, so no task of the client's own has to watch the request. The
    /// delegate runs on `eventLoop`, which AsyncHTTPClient then prefers for the connection.
    private func send(_ request: URLRequest, to url: URL, limits: IPDataTransportLimits) async throws
        -> AnswerCollector.Answer
    {
        let largest = min(maximumResponseSize, limits.maximumResponseSize)
        let seconds = min(timeout, limits.deadline)
        do {
            let collector = AnswerCollector(maximumBytes: largest)
            let task = client.execute(
                request: try Self.clientRequest(request, url: url), delegate: collector,
                eventLoop: eventLoop.map { .delegate(on: $0) } ?? .indifferent,
                deadline: .now() + Self.timeAmount(seconds))
            return try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch let error as URLError {
            throw error
        } catch is AnswerCollector.TooLarge {
            throw IPDataTransportLimits.tooLargeError(largest, see: sizeSetting(limits))
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            // Not all of the answer came in time: say whose limit it was, in the client's words.
            throw IPDataTransportLimits.deadlineError(seconds, see: timeout < limits.deadline ? timeSetting : nil)
        } catch {
            throw Self.urlError(for: error, redaction: Self.redaction(for: request), server: Self.originText(of: url))
        }
    }

    /// This transport's own time limit, for its error.
    private var timeSetting: String { "AsyncHTTPClientTransport.timeout" }

    /// The setting that set the size limit, for its error: this transport's, the client's
    /// (nil: the client's words), or both when they are equal.
    func sizeSetting(_ limits: IPDataTransportLimits) -> String? {
        let own = "AsyncHTTPClientTransport.maximumResponseSize"
        if maximumResponseSize < limits.maximumResponseSize { return own }
        if maximumResponseSize > limits.maximumResponseSize { return nil }
        return "IPDataClient.Configuration.maximumResponseSize and \(own)"
    }

    /// `seconds` as NIO's time, never negative, and at most about 31 years (so no overflow).
    static func timeAmount(_ seconds: TimeInterval) -> TimeAmount {
        .nanoseconds(Int64(min(max(0, seconds), 1e9) * 1e9))
    }

    /// `request` as AsyncHTTPClient sends it: the same method, URL, headers and body.
    static func clientRequest(_ request: URLRequest, url: URL) throws -> HTTPClient.Request {
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        // Bytes, so that a request resent on a fresh connection carries its whole body.
        let body = request.httpBody.map { HTTPClient.Body.byteBuffer(ByteBuffer(bytes: $0)) }
        return try HTTPClient.Request(
            url: url, method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), headers: headers, body: body)
    }

    /// The answer's head as `HTTPURLResponse`, for the URL that got it.
    static func urlResponse(_ head: HTTPResponseHead, url: URL) -> URLResponse {
        var headers: [String: String] = [:]
        for (name, value) in head.headers {
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let version = "HTTP/\(head.version.major).\(head.version.minor)"
        return HTTPURLResponse(
            url: url, statusCode: Int(head.status.code), httpVersion: version, headerFields: headers)
            ?? URLResponse(url: url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
    }

    /// Removes the request's key (its `api-key` header) from the text of the errors built here.
    static func redaction(for request: URLRequest) -> KeyRedaction {
        KeyRedaction(apiKeys: [request.value(forHTTPHeaderField: "api-key")].compactMap { $0 })
    }

    /// The `URLError` that stands for an AsyncHTTPClient or SwiftNIO error, with one line in plain
    /// words as its message: what failed, with `server` (an origin, never a URL with its query).
    static func urlError(for error: any Error, redaction: KeyRedaction, server: String? = nil) -> URLError {
        let code = urlErrorCode(for: error)
        let server = server ?? "the server"
        let message: String
        switch code {
        case .cancelled: message = "The request was cancelled."
        case .timedOut: message = "The request to \(server) timed out."
        case .cannotFindHost: message = "The host of \(server) could not be found."
        case .cannotConnectToHost: message = "Could not connect to \(server)\(reason(error))."
        case .networkConnectionLost: message = "The connection to \(server) was lost\(reason(error))."
        case .secureConnectionFailed:
            let unverified = String(describing: error).contains("CERTIFICATE_VERIFY_FAILED")
            message =
                "The secure connection to \(server) failed\(unverified ? ": its certificate is not trusted" : "")."
        default:
            // What AsyncHTTPClient or SwiftNIO says, on one line and short.
            let text = redaction.redact(String(describing: error)).split(whereSeparator: \.isNewline).joined(
                separator: " ")
            message = "The exchange with \(server) failed: \(text.count > 200 ? text.prefix(199) + "…" : text)"
        }
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// `: ` and the system's words for the socket error behind `error`, when there is one.
    private static func reason(_ error: any Error) -> String {
        let io =
            (error as? IOError)
            ?? (error as? NIOConnectionError)?.connectionErrors.lazy.compactMap {
                $0.error as? IOError
            }.first
        guard let io else { return "" }
        return ": " + String(cString: strerror(io.errnoCode)).lowercased()
    }

    static func urlErrorCode(for error: any Error) -> URLError.Code {
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout: return .timedOut
            case .connectTimeout, .tlsHandshakeTimeout: return .timedOut
            case .remoteConnectionClosed, .uncleanShutdown: return .networkConnectionLost
            default: return .badServerResponse
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .cannotFindHost
            }
            return .cannotConnectToHost
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH: return .cannotConnectToHost
            case ECONNRESET, EPIPE: return .networkConnectionLost
            default: return .networkConnectionLost
            }
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return .timedOut
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed: return .networkConnectionLost
            default: return .badServerResponse
            }
        }
        // NIOSSL's errors (NIOSSLError, BoringSSLError, NIOSSLExtraError), without importing NIOSSL.
        let type = String(reflecting: Swift.type(of: error))
        if type.hasPrefix("NIOSSL.") { return .secureConnectionFailed }
        if type.hasPrefix("NIOHTTP2.") { return .networkConnectionLost }
        return .badServerResponse
    }
}

/// Gathers one answer for `AsyncHTTPClientTransport`: its head, its body up to `maximumBytes`
/// (past that the request fails with `TooLarge`, and reading stops), and the URL that answered.
// @unchecked Sendable: AsyncHTTPClient calls every method of a delegate on the request's one
// event loop, in order; `state` is only touched there, and read by `didFinishRequest` last.
private final class AnswerCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Answer: Sendable {
        let head: HTTPResponseHead
        let body: Data
        /// The URL of the request that got the answer: the last one, if the client followed redirects.
        let url: URL?
    }

    /// The answer grew past `maximumBytes`.
    struct TooLarge: Error {}

    private let maximumBytes: Int
    private var head: HTTPResponseHead?
    private var body = Data()
    private var url: URL?

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    func didVisitURL(task: HTTPClient.Task<Answer>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        url = request.url
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        // An announced length: past the limit, the answer is refused before its body comes;
        // within it, the body gets its room at once instead of growing by doubling.
        if let text = head.headers.first(name: "content-length"), let length = Int(text), length >= 0 {
            guard length <= maximumBytes else { return task.eventLoop.makeFailedFuture(TooLarge()) }
            body.reserveCapacity(length)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.count + buffer.readableBytes <= maximumBytes else {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        body.append(contentsOf: buffer.readableBytesView)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        // The body leaves with the answer: AsyncHTTPClient may hold on to this delegate for a
        // while after the request, and a bulk answer is a quarter of a megabyte.
        defer { body = Data() }
        return Answer(head: head, body: body, url: url)
    }
}
#endif
