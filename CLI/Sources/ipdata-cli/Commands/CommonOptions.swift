import DiskCache
import Foundation
import IPData
import IPDataTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the options of a lookup command say, read and checked in one place: the shared
/// `ClientOptions` and `EndpointOptions`, and the command's `--fields`, `--format` and `--output`.
struct CommonOptions {
    /// The help of `--fields` and `--format` where they mean what they mean for a lookup.
    static let fieldsHelp = "only these fields; dotted paths such as asn.name pick CSV and table columns"
    static let formatHelp = "\(OutputFormat.names) (default: json for one result, jsonl for several)"
    static let outputHelp = "write results to FILE instead of standard output"

    /// The `--fields` selection, if any.
    let selection: FieldSelection?
    /// The `--format`, if given.
    let format: OutputFormat?
    /// The `--output` path, if given.
    let outputPath: String?
    /// The `--api-key` value, if given.
    let apiKeyOption: String?
    /// Where requests go: `--base-url`, the EU endpoint for `--eu`, else `IPDATA_BASE_URL`,
    /// else the global endpoint.
    let baseURL: URL
    /// Whether `baseURL` came from `IPDATA_BASE_URL`, which `--verbose` then says.
    let baseURLIsFromEnvironment: Bool
    /// `--sandbox`: answers come from sample data, never from the API. Only ever set by the flag.
    let isSandbox: Bool
    /// `--retries`: how many times a request may be sent again (3 by default).
    let retryCount: Int
    /// `--resend-bulk`: bulk requests are retried after failures after which the API may have
    /// answered them, as lookups are.
    let resendsBulk: Bool
    /// `--timeout`: the most seconds one request may take (30 by default).
    let timeoutSeconds: Int
    /// `--quiet`: no summary, progress bar or notices (see `Console.isQuiet`).
    let isQuiet: Bool
    /// `--verbose`: where the key comes from, and each request, on standard error.
    let isVerbose: Bool
    /// `--no-cache`: answers are neither read from nor kept in the disk cache.
    let usesCache: Bool

    /// Reads and checks `client`, `endpoint` and the command's `fields` (every value of
    /// `--fields`), `format` and `output`, and `IPDATA_BASE_URL` in `environment`; throws a
    /// `UsageError` for bad values.
    init(
        client: ClientOptions, endpoint: EndpointOptions, fields: [String] = [], format: String? = nil,
        output: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        selection = fields.isEmpty ? nil : try FieldSelection(parsing: fields)
        self.format = try format.map(OutputFormat.init(parsing:))
        outputPath = output
        if outputPath?.isEmpty == true { throw UsageError("--output needs a file name") }
        apiKeyOption = client.apiKey
        isSandbox = client.sandbox
        isQuiet = client.quiet
        isVerbose = client.verbose
        usesCache = !client.noCache
        if isQuiet, isVerbose { throw UsageError("use --quiet or --verbose, not both") }
        retryCount = try Self.wholeNumber(client.retries, option: "retries", in: 0...10) ?? 3
        resendsBulk = client.resendBulk
        if resendsBulk, retryCount == 0 { throw UsageError("--resend-bulk resends nothing with --retries 0") }
        // Whole seconds: URLSession on Linux rounds its timeout down to a whole second.
        timeoutSeconds = try Self.wholeNumber(client.timeout, option: "timeout", in: 1...600, unit: " of seconds") ?? 30
        if isSandbox, endpoint.baseURL != nil || endpoint.eu {
            throw UsageError("--sandbox answers from sample data: leave out --base-url and --eu")
        }
        // The sandbox sends nothing: whatever IPDATA_BASE_URL says does not matter then.
        let environment = isSandbox ? [:] : environment
        baseURL = try Self.baseURL(endpoint, environment: environment)
        baseURLIsFromEnvironment =
            endpoint.baseURL == nil && !endpoint.eu
            && environment[Configuration.baseURLVariable].flatMap(Configuration.normalized) != nil
    }

    /// Where `endpoint` sends requests: `--base-url`, the EU endpoint for `--eu`, else
    /// `IPDATA_BASE_URL` from `environment` (unset or empty: not given), else the global
    /// endpoint. Throws a usage error for `--eu` with `--base-url`, and for a URL that is not a
    /// plain http(s) one, or that would send the key in clear text to another machine.
    static func baseURL(
        _ endpoint: EndpointOptions, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> URL {
        guard let text = endpoint.baseURL else {
            if endpoint.eu { return IPDataClient.euBaseURL }
            guard let text = environment[Configuration.baseURLVariable].flatMap(Configuration.normalized) else {
                return IPDataClient.defaultBaseURL
            }
            // The value is not repeated in the message: it may hold a secret (user:password@).
            return try checkedBaseURL(text, name: "the environment variable \(Configuration.baseURLVariable)")
        }
        if endpoint.eu { throw UsageError("use --eu or --base-url, not both") }
        return try checkedBaseURL(text, name: "--base-url")
    }

    /// `text` as a base URL, or a usage error that calls it `name`.
    private static func checkedBaseURL(_ text: String, name: String) throws -> URL {
        // Printable ASCII only, checked before `URL(string:)`: Apple's newer Foundation
        // percent-encodes spaces and converts non-ASCII hosts where Linux's refuses them, and
        // the same text must mean the same everywhere.
        guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
            let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host != nil, url.query == nil, url.fragment == nil, url.user == nil, url.password == nil
        else {
            throw UsageError("\(name) must be an http or https URL without a query, such as https://api.ipdata.co")
        }
        guard !sendsKeyInClearText(to: url) else {
            throw UsageError(
                "\(name) with plain http would send the API key in clear text: use https "
                    + "(http is for this machine only: localhost, 127.0.0.1, [::1])")
        }
        return url
    }

    /// Whether requests to `url` would carry the key in clear text to another machine: plain
    /// `http` to a host other than `localhost`, `127.0.0.0/8` or `::1`. The client refuses such a
    /// base URL at its first lookup; the tool refuses it here, as a usage error, before any.
    static func sendsKeyInClearText(to url: URL) -> Bool {
        guard url.scheme?.lowercased() == "http" else { return false }
        let host = (url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return IPAddress(host) == nil ? host != "localhost" : !IPNetwork.loopback.contains { $0.contains(host) }
    }

    /// `text`, the value of `--option`, as a whole number in `range`, if given; a usage error
    /// otherwise.
    static func wholeNumber(_ text: String?, option: String, in range: ClosedRange<Int>, unit: String = "") throws
        -> Int?
    {
        guard let text else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "--\(option) must be a whole number\(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The client the command uses. With `--sandbox`, one that answers from sample data and
    /// needs no key (saying so on standard error); otherwise one for the API key, with a session
    /// of its own whose requests take at most `--timeout` seconds, and a retry policy of
    /// `--retries` more attempts (`RetryPolicy.recommended` by default; `.default` for 0), which
    /// resends bulk requests the API may have read only with `--resend-bulk`.
    /// Throws a configuration error (exit status 2) that says how to set a key when there is none.
    ///
    /// Every client reports each request as it ends to `RequestTally.run`; with `--verbose`,
    /// standard error says where the key comes from and shows each request (see `RequestLog`).
    func makeClient(environment: [String: String], console: Console) throws -> IPDataClient {
        try makeClientAndCache(environment: environment, console: console, usesCache: false).client
    }

    /// `makeClient(environment:console:)`, and unless `--no-cache` (or `usesCache` false) the
    /// disk cache of its answers as the client's `cacheStore`: nil without a place for it (no
    /// home folder), and when the folder is not safely the user's (said in one line, and the run
    /// goes on without it). Throws what `makeClient` throws, and a usage error for a bad
    /// `IPDATA_CACHE_MAX_ENTRIES`. With `clientReadsCache` false the client only fills the cache
    /// (`SQLiteLookupStore.writingOnly`): its caller reads it first (`CacheFirstLookup`).
    func makeClientAndCache(
        environment: [String: String], console: Console, usesCache: Bool? = nil, clientReadsCache: Bool = true
    ) throws -> (client: IPDataClient, cache: SQLiteLookupStore?) {
        let cacheConfiguration: CacheConfiguration?
        do {
            cacheConfiguration = (usesCache ?? self.usesCache) ? try CacheConfiguration(environment: environment) : nil
        } catch {
            throw UsageError(error.message)
        }
        var clientConfiguration: IPDataClient.Configuration
        let scope: CacheScope
        let key: String
        if isSandbox {
            console.note("sandbox: sample data, not live")
            clientConfiguration = IPDataClient.Configuration(connection: .transport(IPDataSandbox()))
            (scope, key) = (.sandbox, "sandbox-key")
        } else {
            key = try Configuration.load(option: apiKeyOption, environment: environment, console: console)
            if isVerbose, let source = Configuration.source { console.note("API key from \(source.name)") }
            if isVerbose, baseURLIsFromEnvironment {
                console.note("requests go to \(baseURL.absoluteString) (from \(Configuration.baseURLVariable))")
            }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
            // A session of its own (its answers are stopped at the size limit as they arrive), and
            // retries of rate limits, server errors and connection failures, within a time budget
            // that leaves room for the attempts.
            var retryPolicy =
                retryCount == 0
                ? RetryPolicy.default
                : RetryPolicy(
                    maximumAttempts: retryCount + 1,
                    timeBudget: max(30, TimeInterval(timeoutSeconds * (retryCount + 1))))
            retryPolicy.bulkResends = resendsBulk ? .asLookups : .never
            clientConfiguration = IPDataClient.Configuration(
                baseURL: baseURL, connection: .owned(configuration), retryPolicy: retryPolicy,
                deadline: TimeInterval(timeoutSeconds))
            scope = .api(baseURL: baseURL, key: key)
        }
        clientConfiguration.observer = SentRequestObserver(record: requestObserver(console))
        var store: SQLiteLookupStore?
        if let cacheConfiguration {
            do {
                store = SQLiteLookupStore(database: try CacheDatabase.open(cacheConfiguration), scope: scope)
            } catch {
                console.warning(error.description)
            }
        }
        clientConfiguration.cacheStore = clientReadsCache ? store : store?.writingOnly
        return (IPDataClient(apiKey: key, configuration: clientConfiguration), store)
    }

    /// What the client tells of each request as it ends: `RequestTally.run` counts it, and with
    /// `--verbose` a line shows it (see `RequestLog`).
    private func requestObserver(_ console: Console) -> @Sendable (SentRequest) -> Void {
        let tally = RequestTally.run
        guard isVerbose else { return { tally.record($0) } }
        let log = RequestLog(redaction: console.keyRedaction)
        return { request in
            tally.record(request)
            log.record(request)
        }
    }

    /// Opens the output and returns a writer for `kind` records of `shape`; `inputs` are the
    /// files the run reads (see `openOutput(inputs:)`). A table of the default columns keeps
    /// those that fit, and says on `console` which it left out when standard error is a
    /// terminal; a table of the columns `--fields` chose says when it cut values.
    func makeWriter(
        kind: RecordKind, shape: RecordShape, inputs: [String] = [], console: Console? = nil, namesHosts: Bool = false
    ) throws -> RecordWriter {
        let format = format ?? OutputFormat.defaultFormat(for: shape)
        let columns = Columns.columns(
            kind: kind, format: format, selection: selection, shape: shape, namesHosts: namesHosts)
        let showsNotices = Terminal.isTerminal(2)
        return makeRecordWriter(
            format: format, shape: shape, columns: columns, sink: try openOutput(inputs: inputs),
            forTerminal: Terminal.showsOutput(at: outputPath),
            tablePriority: selection == nil ? Columns.tablePriority(kind: kind) : nil,
            tableNotices: { notice in
                guard let console else { return }
                if case .leftOut = notice, !showsNotices { return }
                console.note(notice.message)
            })
    }

    /// The output: standard output, or for `--output` a temporary file that replaces the file
    /// once the run completes (see `OutputSink`). Refuses a file that is one of `inputs`.
    func openOutput(inputs: [String] = []) throws -> OutputSink {
        guard let outputPath else { return .standardOutput() }
        return try OutputSink.file(atPath: outputPath, inputs: inputs)
    }
}
