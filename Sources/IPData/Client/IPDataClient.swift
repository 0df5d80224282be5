import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client for the ipdata.co IP geolocation and threat-intelligence API.
///
/// Create one client and reuse it for every lookup: it keeps its HTTPS connections alive, and
/// URLSession negotiates HTTP/2 where the platform supports it. The client is immutable and
/// `Sendable`, so one instance can be shared by every thread and task. Every method throws only
/// `IPDataError`; cancelling the calling task cancels the HTTP request.
public final class IPDataClient: Sendable {
    /// The global endpoint, `https://api.ipdata.co`.
    public static let defaultBaseURL = URL(string: "https://api.ipdata.co")!
    /// The EU endpoint, `https://eu-api.ipdata.co`: requests are served only from EU data centres.
    public static let euBaseURL = URL(string: "https://eu-api.ipdata.co")!

    /// The version of this SDK, for example `1.1.0`: the version of the README's installation
    /// snippet (a test checks that they match). Every request sends it in its `User-Agent`.
    public static let sdkVersion = "1.1.0"

    /// The `User-Agent` of every request, `ipdata-swift/<version>`.
    static let userAgent = "ipdata-swift/\(sdkVersion)"

    /// The key and the base URL, and the start of every request's URL, worked out once.
    let requestBase: Endpoint.RequestBase
    /// The base URL every request goes to.
    var baseURL: URL { requestBase.baseURL }
    /// What carries the requests: a `URLSessionTransport`, or the caller's transport.
    let transport: any IPDataTransport
    let redaction: KeyRedaction
    /// The opt-in cache of lookups, if the client was given one.
    public let cache: LookupCache?
    /// The store of lookups behind `cache`, if the client was given one (see `Configuration.cacheStore`).
    public let cacheStore: (any LookupCacheStore)?
    /// `cacheStore`, unless it is `cache` itself: the store a lookup awaits after missing `cache`.
    let sharedStore: (any LookupCacheStore)?
    /// When failed requests are sent again.
    public let retryPolicy: RetryPolicy
    /// Why the base URL may not carry the key, if it may not (see `Configuration.allowsInsecureHTTP`).
    let insecureBaseURL: IPDataError?
    /// The requests in flight, at most `Configuration.maximumConcurrentRequests` (fewer over an
    /// HTTP/1.1 session that opens fewer connections a host).
    let slots: RequestSlots
    /// The deadline and the largest answer, which the transport is given with every request.
    let limits: IPDataTransportLimits
    /// How the client waits between attempts and reads the time (replaced by tests).
    let clock: RetryClock
    /// Concurrent identical lookups share one request.
    let coalescer = RequestCoalescer<Answer>()

    /// The key of a rejected bulk element, `{"message": …}`: an element without it is an answer.
    private static let messageKey = Data(#""message""#.utf8)

    /// An answer and the bytes it was decoded from.
    typealias Answer = IPLookupAnswer
    /// When a policy retries rate limits: the clock time before which this client sends no
    /// request, set by a 429 to the wait it asked for, so that every call slows down, not only
    /// the one that was refused.
    let rateLimitHold = Locked<TimeInterval>(0)
    /// Told of each call, request, wait and cache read (see `Configuration.observer`).
    let observer: (any IPDataObserver)?

    /// Creates a client from `configuration`: the API's address, what carries the requests, the
    /// cache and the retry policy (see `Configuration`).
    public convenience init(apiKey: String, configuration: Configuration) {
        self.init(apiKey: apiKey, configuration: configuration, clock: .system)
    }

    init(apiKey: String, configuration: Configuration, clock: RetryClock) {
        self.requestBase = Endpoint.RequestBase(baseURL: configuration.baseURL, apiKey: apiKey)
        let (transport, slots, defaultDeadline) = configuration.connection.makeTransport(
            maximumConcurrentRequests: configuration.maximumConcurrentRequests)
        self.transport = transport
        self.limits = IPDataTransportLimits(
            deadline: configuration.deadline ?? defaultDeadline, maximumResponseSize: configuration.maximumResponseSize)
        self.redaction = KeyRedaction(apiKey: apiKey)
        self.cacheStore = configuration.cacheStore
        // A LookupCache given as the store alone is read in place, as `cache` is, without a suspension.
        let memory = configuration.cacheStore as? LookupCache
        self.cache = configuration.cache ?? memory
        self.sharedStore = memory != nil && memory === self.cache ? nil : configuration.cacheStore
        self.retryPolicy = configuration.retryPolicy
        self.clock = clock
        self.insecureBaseURL = configuration.allowsInsecureHTTP ? nil : Self.cleartextRefusal(configuration.baseURL)
        self.slots = slots
        self.observer = configuration.observer
    }

    /// The error for a base URL that would send the key in clear text: plain `http` to a host
    /// other than this machine.
    static func cleartextRefusal(_ baseURL: URL) -> IPDataError? {
        guard baseURL.scheme?.lowercased() == "http" else { return nil }
        let host = (baseURL.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        guard !(IPAddress(host)?.isLoopback ?? (host == "localhost")) else { return nil }
        let message =
            "The base URL \(Origin(baseURL)?.text ?? "http://…") is not https: the API key would travel in clear text. "
            + "Use https, or set allowsInsecureHTTP in IPDataClient.Configuration for a server you trust."
        return .networkError(
            URLError(.appTransportSecurityRequiresSecureConnection, userInfo: [NSLocalizedDescriptionKey: message]))
    }

    /// Creates a client that sends its requests through `session`.
    ///
    /// - Parameters:
    ///   - apiKey: Your ipdata API key.
    ///   - baseURL: The API's address; `euBaseURL` for the EU endpoint, or a gateway URL, whose
    ///     path prefix is kept.
    ///   - session: The session to use. By default `URLSession.shared`, whose connection pool the
    ///     whole process shares. The client never invalidates a session it did not create.
    public convenience init(apiKey: String, baseURL: URL = IPDataClient.defaultBaseURL, session: URLSession = .shared) {
        self.init(apiKey: apiKey, configuration: Configuration(baseURL: baseURL, connection: .session(session)))
    }

    /// Creates a client whose requests go through `transport` instead of URLSession.
    ///
    /// Deprecated: write `IPDataClient(apiKey:configuration:)` with
    /// `IPDataClient.Configuration(connection: .transport(transport), cache: cache)`, which means the same.
    @available(
        *, deprecated,
        message:
            "write IPDataClient(apiKey: apiKey, configuration: IPDataClient.Configuration(baseURL: baseURL, connection: .transport(transport), cache: cache))"
    )
    public convenience init(
        apiKey: String, baseURL: URL = IPDataClient.defaultBaseURL, transport: any IPDataTransport,
        cache: LookupCache? = nil
    ) {
        self.init(
            apiKey: apiKey,
            configuration: Configuration(baseURL: baseURL, connection: .transport(transport), cache: cache))
    }

    /// Creates a client that sends its requests through `session` and keeps answers in `cache`.
    ///
    /// Deprecated: write `IPDataClient(apiKey:configuration:)` with
    /// `IPDataClient.Configuration(connection: .session(session), cache: cache)`, which means the same.
    @available(
        *, deprecated,
        message:
            "write IPDataClient(apiKey: apiKey, configuration: IPDataClient.Configuration(baseURL: baseURL, connection: .session(session), cache: cache))"
    )
    public convenience init(
        apiKey: String, baseURL: URL = IPDataClient.defaultBaseURL, session: URLSession = .shared, cache: LookupCache
    ) {
        self.init(
            apiKey: apiKey, configuration: Configuration(baseURL: baseURL, connection: .session(session), cache: cache))
    }

    /// Creates a client with a dedicated `URLSession` made once from `configuration`.
    ///
    /// The client owns that session: it lives as long as the client and is invalidated with
    /// `finishTasksAndInvalidate()` when the client is deallocated. There is nothing to close.
    public convenience init(
        apiKey: String, baseURL: URL = IPDataClient.defaultBaseURL, configuration: URLSessionConfiguration
    ) {
        self.init(apiKey: apiKey, configuration: Configuration(baseURL: baseURL, connection: .owned(configuration)))
    }

    /// Creates a client with a dedicated `URLSession` made from `configuration` that keeps
    /// answers in `cache`.
    ///
    /// Deprecated: write `IPDataClient(apiKey:configuration:)` with
    /// `IPDataClient.Configuration(connection: .owned(configuration), cache: cache)`, which means the same.
    @available(
        *, deprecated,
        message:
            "write IPDataClient(apiKey: apiKey, configuration: IPDataClient.Configuration(baseURL: baseURL, connection: .owned(configuration), cache: cache))"
    )
    public convenience init(
        apiKey: String, baseURL: URL = IPDataClient.defaultBaseURL, configuration: URLSessionConfiguration,
        cache: LookupCache
    ) {
        self.init(
            apiKey: apiKey,
            configuration: Configuration(baseURL: baseURL, connection: .owned(configuration), cache: cache))
    }

    // MARK: - Lookups

    /// Looks up the address the request comes from: the caller's own public IP.
    ///
    /// - Parameter fields: Top-level fields to return, for example `["ip", "city"]`; nil or empty
    ///   for all. Names are sent as given.
    public func lookup(fields: [String]? = nil) async throws -> IPResponse {
        try await lookupAnswer(fields: fields).response
    }

    /// `lookup(fields:)`, with the bytes of the API's answer beside the model: for a caller that
    /// passes on what the API sent (see `IPLookupAnswer`).
    public func lookupAnswer(fields: [String]? = nil) async throws -> IPLookupAnswer {
        try await ObservedCall.run(observer, .ownAddress, addresses: 0, clock: clock) { watch in
            let body = try await send(.ownAddress, fields: fields, watch: watch)
            return Answer(response: try decode(IPResponse.self, from: body), json: body)
        }
    }

    /// Looks up one IPv4 or IPv6 address.
    ///
    /// - Parameters:
    ///   - ip: The address, for example `"8.8.8.8"` or `"2001:4860:4860::8888"`.
    ///   - fields: Top-level fields to return, for example `["ip", "city"]`; nil or empty for all.
    ///
    /// A string that is not an IPv4 or IPv6 address throws `badRequest` without sending anything.
    /// With a `cache`, a cached answer sends nothing either. Concurrent lookups of the same
    /// address and fields share one request.
    public func lookup(_ ip: String, fields: [String]? = nil) async throws -> IPResponse {
        try await lookupAnswer(ip, fields: fields, willSend: nil).response
    }

    /// `lookup(_:fields:)`, with the bytes of the API's answer beside the model: for a caller that
    /// passes on what the API sent (see `IPLookupAnswer`). It throws, caches and shares requests
    /// as `lookup(_:fields:)` does; `json` is nil for an answer from `cache`.
    public func lookupAnswer(_ ip: String, fields: [String]? = nil) async throws -> IPLookupAnswer {
        try await lookupAnswer(ip, fields: fields, willSend: nil)
    }

    /// `lookupAnswer(_:fields:)`, calling `willSend` before a request goes (not for a cached or
    /// shared answer).
    func lookupAnswer(_ ip: String, fields: [String]?, willSend: (@Sendable () -> Void)?) async throws
        -> Answer
    {
        try await ObservedCall.run(observer, .address, addresses: 1, clock: clock) { watch in
            guard let key = LookupCacheKey(address: ip, fields: fields) else {
                throw IPDataError.badRequest(APIMessage.invalidAddress(ip))
            }
            if let cache {
                let cached = cache.value(forKey: key.description)
                watch?.cacheRead(.memory, hits: cached == nil ? 0 : 1, of: 1)
                if let cached { return Answer(response: cached, json: nil) }
            }
            if let sharedStore {
                return try await lookupAnswer(
                    ip, fields: fields, key: key, store: sharedStore, willSend: willSend, watch: watch)
            }
            return try await coalescer.value(forKey: key.description, shared: watch?.coalesced) {
                willSend?()
                let body = try await send(.address(ip), fields: fields, watch: watch)
                let response = try decode(IPResponse.self, from: body)
                // Filled before the shared request closes, so no later caller slips between the two.
                cache?.insert(response, forKey: key.description)
                return Answer(response: response, json: body)
            }
        }
    }

    /// `lookupAnswer` past a miss of `cache`, with a store behind it: concurrent callers share
    /// one read of the store and, when it misses, one request, whose answer fills both tiers
    /// before the shared lookup closes.
    private func lookupAnswer(
        _ ip: String, fields: [String]?, key: LookupCacheKey, store: any LookupCacheStore,
        willSend: (@Sendable () -> Void)?, watch: ObservedCall?
    ) async throws -> Answer {
        try await coalescer.value(forKey: key.description, shared: watch?.coalesced) {
            // An entry whose bytes do not decode is no answer: a miss.
            let kept = await store.entry(for: key).flatMap { entry in entry.model.map { (entry, $0) } }
            watch?.cacheRead(.store, hits: kept == nil ? 0 : 1, of: 1)
            if let (entry, response) = kept {
                cache?.insert(response, forKey: key.description)
                return Answer(response: response, json: entry.json)
            }
            willSend?()
            let body = try await send(.address(ip), fields: fields, watch: watch)
            let response = try decode(IPResponse.self, from: body)
            cache?.insert(response, forKey: key.description)
            await store.store(LookupCacheEntry(response: response, json: body), for: key)
            return Answer(response: response, json: body)
        }
    }

    /// Returns the raw body of one field of an address, for example `"asn"` or `"country_name"`.
    ///
    /// Object fields (`asn`, `threat`, `time_zone`, …) arrive as JSON; string fields as plain,
    /// unquoted UTF-8 text (`United States`).
    /// An invalid address or an empty field name throws `badRequest` without sending anything.
    public func lookupField(_ ip: String, field: String) async throws -> Data {
        try await ObservedCall.run(observer, .field, addresses: 1, clock: clock) { watch in
            try InputValidation.checkAddress(ip)
            try InputValidation.checkFieldName(field)
            return try await send(.field(address: ip, field: field), fields: nil, watch: watch)
        }
    }

    /// Looks up to 100 addresses in one `POST /bulk` request (paid plans).
    ///
    /// The results are in the order of `ips`, one per address. An address the API rejects (a
    /// private one, say) does not fail the call: its result carries the address in `ip` and the
    /// API's reason in `message`. A string that is not an IP address gets such a result at once
    /// and is not sent. An empty list or more than 100 addresses throws `badRequest` without
    /// sending anything. If the connection is lost before any answer arrives
    /// (`URLError.networkConnectionLost`, typically a pooled connection the server had closed),
    /// the request is sent once more on a fresh connection, unless the client's `retryPolicy` says
    /// otherwise (`RetryPolicy.bulkResends`).
    public func bulkLookup(_ ips: [String], fields: [String]? = nil) async throws -> [IPResponse] {
        try await bulkLookup(ips, fields: fields, willSend: nil)
    }

    /// `bulkLookup(_:fields:)`, calling `willSend` with the number of addresses when a request goes out.
    func bulkLookup(
        _ ips: [String], fields: [String]?, willSend: (@Sendable (Int) -> Void)?
    ) async throws -> [IPResponse] {
        try await bulkLookupAnswers(ips, fields: fields, keepsJSON: false, willSend: willSend).map(\.response)
    }

    /// `bulkLookup(_:fields:)`, calling `willSend` when a request actually goes out, with the
    /// bytes of each address's element of the API's answer when `keepsJSON` (nil for an address
    /// answered from the cache or refused without a request). Without `readsCaches` (a caller
    /// that has read them, `cachedAnswers`), every address goes to the API.
    func bulkLookupAnswers(
        _ ips: [String], fields: [String]?, keepsJSON: Bool, readsCaches: Bool = true,
        willSend: (@Sendable (Int) -> Void)?
    ) async throws -> [Answer] {
        try await ObservedCall.run(observer, .bulk, addresses: ips.count, clock: clock) { watch in
            try await bulkLookupAnswers(
                ips, fields: fields, keepsJSON: keepsJSON, readsCaches: readsCaches, willSend: willSend, watch: watch)
        }
    }

    /// `bulkLookupAnswers(_:fields:keepsJSON:readsCaches:willSend:)` within its call.
    private func bulkLookupAnswers(
        _ ips: [String], fields: [String]?, keepsJSON: Bool, readsCaches: Bool, willSend: (@Sendable (Int) -> Void)?,
        watch: ObservedCall?
    ) async throws -> [Answer] {
        try InputValidation.checkBulkCount(ips.count)
        let keys = ips.map { LookupCacheKey(address: $0, fields: fields) }
        var results: [IPResponse?]
        var json = [Data?](repeating: nil, count: ips.count)
        if readsCaches {
            let cached = await cachedAnswers(ips, fields: fields, keepsJSON: keepsJSON, watch: watch)
            results = cached.map { $0?.response }
            json = cached.map { $0?.json }
        } else {
            results = [IPResponse?](repeating: nil, count: ips.count)
        }
        for (index, key) in keys.enumerated() where key == nil {
            results[index] = IPResponse(rejected: ips[index], message: APIMessage.invalidAddress(ips[index]))
        }
        let pending = results.indices.filter { results[$0] == nil }
        guard !pending.isEmpty else {
            return zip(results, json).compactMap { result, json in result.map { Answer(response: $0, json: json) } }
        }

        let addresses = pending.map { ips[$0] }
        willSend?(addresses.count)
        let body = try await send(.bulk(addresses), fields: fields, watch: watch)
        // One result per address sent: counted before decoding, so that a longer answer costs nothing.
        if let counted = JSONArrayScan.elementCount(of: body, limit: addresses.count), counted != addresses.count {
            throw Self.resultCountMismatch(sent: addresses.count, got: counted > addresses.count ? nil : counted)
        }
        // Each element's model, and with `keepsJSON` its bytes. The caller then prints the bytes:
        // an element is decoded only when it may be a rejection (it holds "message"), and one
        // not decoded is not cached.
        let elements: [(model: IPResponse?, json: Data?)]
        if keepsJSON, let ranges = JSONArrayScan.elementRanges(of: body), ranges.count == pending.count {
            elements = zip(pending, ranges).map { index, range in
                let element = body.subdata(in: range)
                guard element.first == UInt8(ascii: "{") else { return (nil, nil) }
                guard element.range(of: Self.messageKey) != nil else {
                    return (IPResponse(undecoded: ips[index]), element)
                }
                return (try? IPResponse(jsonData: element), element)
            }
        } else {
            let answers = try decodeArray(IPResponse.self, from: body)
            guard answers.count == addresses.count else {
                throw Self.resultCountMismatch(sent: addresses.count, got: answers.count)
            }
            elements = answers.map { ($0, nil) }
        }
        // A store behind the cache keeps each answer's own bytes; undecoded, they go to it alone.
        let storedJSON = sharedStore == nil || keepsJSON ? nil : JSONArrayScan.elementRanges(of: body)
        var stored: (entries: [LookupCacheEntry], keys: [LookupCacheKey]) = ([], [])
        for (position, (index, element)) in zip(pending, elements).enumerated() {
            let address = ips[index]
            guard var result = element.model else {
                results[index] = IPResponse(
                    rejected: address, message: "The API sent no readable result for this address.")
                continue
            }
            if result.message != nil {
                // A rejected address comes back as {"message": …} alone; say which address it was.
                if result.ip == nil { result.ip = address }
            } else if element.json == nil, let key = keys[index] {
                cache?.insert(result, forKey: key.description)
                if sharedStore != nil {
                    let bytes = storedJSON.flatMap { $0.count == pending.count ? body.subdata(in: $0[position]) : nil }
                    stored.entries.append(LookupCacheEntry(response: result, json: bytes))
                    stored.keys.append(key)
                }
            } else {
                json[index] = element.json
                if sharedStore != nil, let bytes = element.json, let key = keys[index] {
                    stored.entries.append(LookupCacheEntry(json: bytes))
                    stored.keys.append(key)
                }
            }
            results[index] = result
        }
        if let sharedStore, !stored.keys.isEmpty { await sharedStore.store(stored.entries, for: stored.keys) }
        return zip(results, json).compactMap { result, json in result.map { Answer(response: $0, json: json) } }
    }

    /// What the client's caches hold for `ips`, one per address in their order, nil where neither
    /// `cache` nor the store behind it (read once, for every address `cache` missed) has an
    /// answer, and for what is no address. With `keepsJSON`, an answer the store kept as bytes
    /// comes back with them and undecoded (`IPResponse(undecoded:)`), unless `cache` wants it.
    func cachedAnswers(
        _ ips: [String], fields: [String]?, keepsJSON: Bool, watch: ObservedCall?
    ) async -> [Answer?] {
        let keys = ips.map { LookupCacheKey(address: $0, fields: fields) }
        var answers = keys.map { key in
            key.flatMap { cache?.value(forKey: $0.description) }.map { Answer(response: $0, json: nil) }
        }
        let read = keys.indices.filter { keys[$0] != nil }
        if let watch, cache != nil {
            watch.cacheRead(.memory, hits: read.filter { answers[$0] != nil }.count, of: read.count)
        }
        guard let sharedStore else { return answers }
        let missed = read.filter { answers[$0] == nil }
        guard !missed.isEmpty else { return answers }
        let missedKeys = missed.compactMap { keys[$0] }
        var hits = 0
        for (index, (key, kept)) in zip(missed, zip(missedKeys, await sharedStore.entries(for: missedKeys))) {
            guard let kept else { continue }
            if keepsJSON, cache == nil, kept.holdsBytesAlone, let bytes = kept.json {
                answers[index] = Answer(response: IPResponse(undecoded: ips[index]), json: bytes)
                hits += 1
                continue
            }
            // Bytes that do not decode are no answer: a miss.
            guard let response = kept.model else { continue }
            cache?.insert(response, forKey: key.description)
            answers[index] = Answer(response: response, json: keepsJSON ? kept.json : nil)
            hits += 1
        }
        watch?.cacheRead(.store, hits: hits, of: missedKeys.count)
        return answers
    }

    /// `cachedAnswers(_:fields:keepsJSON:watch:)` as a call of its own for the observer (a bulk
    /// call answered from the caches alone): how a lookup stream reads the caches ahead of its
    /// requests.
    func cachedAnswers(_ ips: [String], fields: [String]?, keepsJSON: Bool) async -> [Answer?] {
        do {
            return try await ObservedCall.run(observer, .bulk, addresses: ips.count, clock: clock) { watch in
                await cachedAnswers(ips, fields: fields, keepsJSON: keepsJSON, watch: watch)
            }
        } catch {
            return [Answer?](repeating: nil, count: ips.count)
        }
    }

    /// A bulk answer with another number of results than addresses sent; `got` nil for more.
    private static func resultCountMismatch(sent: Int, got: Int?) -> IPDataError {
        let results = got.map(String.init) ?? "more than \(sent)"
        return .decodingFailed(
            DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "sent \(sent) addresses, got \(results) results")))
    }

    /// Looks up an autonomous system, as `"AS15169"`, `"as15169"` or `"15169"` (paid plans).
    ///
    /// Anything else (`"ASBlah"`, `"AS 1"`) throws `notFound("AS… was not found.")`, as the API
    /// answers, without sending anything.
    public func lookupASN(_ asn: String) async throws -> ASNDetail {
        try await ObservedCall.run(observer, .asn, addresses: 0, clock: clock) { watch in
            let path = try InputValidation.asnPath(asn)
            return try await decode(ASNDetail.self, from: send(.asn(path), fields: nil, watch: watch))
        }
    }

    // MARK: - Plumbing

    /// Sends one call and returns the body of its 2xx answer, sending it again as the retry
    /// policy says (see `RetryPolicy`); `watch` hears of each request and wait.
    func send(_ endpoint: Endpoint, fields: [String]?, watch: ObservedCall? = nil) async throws -> Data {
        if let insecureBaseURL { throw insecureBaseURL }
        let request = endpoint.urlRequest(requestBase, fields: fields)
        let isBulk: Bool
        if case .bulk = endpoint { isBulk = true } else { isBulk = false }
        let start = clock.now()
        var attempt = 0
        var sent = 0
        var resentOverLostConnection = false
        while true {
            attempt += 1
            sent += 1
            do {
                try await waitOutRateLimitHold(watch, attempt: sent)
                let observed = watch.map { ObservedRequest($0, request, endpoint, attempt: sent, redaction: redaction) }
                let answer = try await exchange(request, observed)
                // Compared as URLs first: parsing two origins costs more than the rest of the check.
                if let answered = answer.url, answered != request.url, let asked = Origin(request.url),
                    Origin(answered) != asked
                {
                    throw Self.answerFromAnotherOrigin(answered)
                }
                let status = answer.statusCode
                if (200..<300).contains(status) { return answer.body }
                let retryAfter = answer.value(forHTTPHeaderField: "Retry-After").flatMap {
                    RetryAfter.seconds($0, now: Date())
                }
                let wait = retryPolicy.delay(
                    after: .answered(status: status, retryAfter: retryAfter), attempt: attempt,
                    elapsed: clock.now() - start, isBulk: isBulk, random: clock.random)
                if status == 429 { holdForRateLimit(retryAfter ?? wait) }
                guard let wait else {
                    throw APIResponse.error(of: answer, to: request.url, redaction: redaction)
                }
                watch?.retryWait(attempt: sent + 1, seconds: wait, reason: .answered(statusCode: status))
                try await pause(wait)
            } catch let error as URLError {
                // A bulk request whose connection was lost: resent once at once, as the SDK always has.
                if isBulk, error.code == .networkConnectionLost, retryPolicy.bulkResends == .onceAfterLostConnection,
                    !resentOverLostConnection
                {
                    resentOverLostConnection = true
                    attempt -= 1
                    watch?.retryWait(attempt: sent + 1, seconds: 0, reason: .failed(redaction.networkError(error)))
                    continue
                }
                guard
                    let wait = retryPolicy.delay(
                        after: .failed(error), attempt: attempt, elapsed: clock.now() - start, isBulk: isBulk,
                        random: clock.random)
                else { throw redaction.networkError(error) }
                watch?.retryWait(attempt: sent + 1, seconds: wait, reason: .failed(redaction.networkError(error)))
                try await pause(wait)
            } catch let error as IPDataError {
                throw error
            } catch {
                throw redaction.networkError(error)
            }
        }
    }

    /// After a 429, when the policy retries rate limits: no request of this client goes out for
    /// `seconds` (what `Retry-After` asked for, else the backoff's wait, at most the policy's
    /// `maximumDelay`), whichever call it belongs to.
    private func holdForRateLimit(_ seconds: TimeInterval?) {
        guard retryPolicy.retriesRateLimitsAndServerErrors else { return }
        let wait = min(retryPolicy.maximumDelay, max(0, seconds ?? retryPolicy.initialDelay))
        let until = clock.now() + wait
        rateLimitHold.withLock { $0 = max($0, until) }
    }

    /// Waits until the rate-limit hold, if one is on, has passed; a cancelled task stops waiting.
    private func waitOutRateLimitHold(_ watch: ObservedCall?, attempt: Int) async throws {
        let wait = rateLimitHold.withLock { $0 } - clock.now()
        guard wait > 0 else { return }
        watch?.retryWait(attempt: attempt, seconds: wait, reason: .rateLimited)
        try await pause(wait)
    }

    /// The transport's answer to `request`, sent once a slot is free (see `RequestSlots`) and
    /// refused when it is larger than the limit (which every transport of this package stops as
    /// it arrives); `observed` hears of its start and end.
    private func exchange(_ request: URLRequest, _ observed: ObservedRequest?) async throws
        -> IPDataTransportResponse
    {
        do {
            try await slots.acquire()
        } catch {
            throw URLError(.cancelled)
        }
        defer { slots.release() }
        observed?.started()
        let start = observed == nil ? 0 : clock.now()
        do {
            let answer = try await transport.response(for: request, limits: limits)
            guard answer.body.count <= limits.maximumResponseSize else {
                throw IPDataTransportLimits.tooLargeError(limits.maximumResponseSize)
            }
            observed?.ended(
                IPDataRequestOutcome(
                    statusCode: answer.statusCode, failure: nil, duration: max(0, clock.now() - start),
                    bytesReceived: answer.body.count, retryAfter: answer.value(forHTTPHeaderField: "Retry-After")))
            return answer
        } catch {
            guard let observed else { throw error }
            let failure = error as? IPDataError ?? redaction.networkError(error)
            var reachedServer = true
            if case .networkError(let error as URLError) = failure {
                reachedServer = RetryPolicy.mayHaveReachedTheServer(error)
            }
            observed.ended(
                IPDataRequestOutcome(
                    statusCode: nil, failure: failure, duration: max(0, clock.now() - start), bytesReceived: 0,
                    mayHaveReachedTheServer: reachedServer))
            throw error
        }
    }

    /// A transport that followed a redirect to another origin: its answer is not the API's, and
    /// the key went along. (The URLSession transport never follows one; see `RequestDelegate`.)
    static func answerFromAnotherOrigin(_ url: URL) -> IPDataError {
        let message =
            "The transport followed a redirect to \(Origin(url)?.text ?? "another origin"), another origin: the answer "
            + "is not the API's, and the API key may have gone there. A transport must not follow such redirects."
        return .networkError(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: message]))
    }

    /// Waits `seconds` between two attempts; a cancelled task stops waiting at once.
    private func pause(_ seconds: TimeInterval) async throws {
        do {
            try await clock.sleep(seconds)
        } catch {
            throw IPDataError.networkError(URLError(.cancelled))
        }
    }

    /// The model of an answer, read by the client's own JSON parser (see `LenientModel`).
    func decode<Model: LenientModel>(_ type: Model.Type, from body: Data) throws -> Model {
        do {
            return try Model(jsonData: body)
        } catch {
            throw IPDataError.decodingFailed(error)
        }
    }

    /// The models of an answer that is an array, nil for an element that is not an object.
    func decodeArray<Model: LenientModel>(_ type: Model.Type, from body: Data) throws -> [Model?] {
        do {
            return try Model.array(jsonData: body)
        } catch {
            throw IPDataError.decodingFailed(error)
        }
    }
}

extension IPDataClient: CustomReflectable {
    /// Nothing: `dump(client)` and debuggers must not show the API key.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
