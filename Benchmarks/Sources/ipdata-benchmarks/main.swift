// ipdata-benchmarks: measures this SDK against the local test server and prints one JSON line
// per measurement, in the shape Benchmarks/peers/record.py reads.
//
//   ipdata-benchmarks single --client CLIENT --base-url URL --key KEY --count N --concurrency C
//                            [--max-concurrent M] [--timeout SECONDS]
//   ipdata-benchmarks stream --base-url URL --key KEY --file PATH --concurrency C
//   ipdata-benchmarks decode --fixture PATH --iterations N
//   ipdata-benchmarks overhead --fixture PATH --iterations N [--bulk 100]
//
// CLIENT: sdk (a session of its own), sdk-default (URLSession.shared; --max-concurrent sets its
// maximumConcurrentRequests), sdk-injected (a URLSession(configuration: .default) of the caller's,
// --timeout its request timeout), the plain loops urlsession, urlsession-delegate and
// urlsession-completion (a three-field-per-object Codable struct), and the user's floors
// user-shared and user-default (URLSession.shared or .default, data(for:), JSONDecoder of the
// full IPResponse) and user-serialization (.default and JSONSerialization).
import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func required(_ name: String) -> String {
    guard let value = option(name) else {
        FileHandle.standardError.write(Data("ipdata-benchmarks: --\(name) is required\n".utf8))
        exit(2)
    }
    return value
}

func emit(_ fields: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// Distinct public addresses, so that neither the cache nor coalescing can help.
func addresses(_ count: Int) -> [String] {
    (0..<count).map { "8.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
}

/// User plus system CPU seconds of this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}

/// How a windowed run went: the outcomes, and each lookup's seconds from its call to its end.
struct WindowedRun {
    var outcomes: [Outcome] = []
    var latencies: [Double] = []

    func count(_ outcome: Outcome) -> Int { outcomes.filter { $0 == outcome }.count }

    /// The `fraction` quantile of the latencies, in milliseconds.
    func latency(_ fraction: Double) -> Double {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] * 1_000
    }
}

/// Runs `work` for every element with at most `concurrency` in flight.
func runWindowed(
    _ items: [String], concurrency: Int, _ work: @escaping @Sendable (String) async -> Outcome
) async -> WindowedRun {
    await withTaskGroup(of: (Outcome, Double).self) { group in
        var run = WindowedRun()
        var next = 0
        func add(_ item: String) {
            group.addTask {
                let start = DispatchTime.now().uptimeNanoseconds
                let outcome = await work(item)
                return (outcome, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        while next < min(concurrency, items.count) {
            add(items[next])
            next += 1
        }
        while let (outcome, seconds) = await group.next() {
            run.outcomes.append(outcome)
            run.latencies.append(seconds)
            if next < items.count {
                add(items[next])
                next += 1
            }
        }
        return run
    }
}

/// A session of the caller's, as an app injects one: `.default`, with `--timeout` seconds of
/// request timeout when given.
func injectedSession() -> URLSession {
    let configuration = URLSessionConfiguration.default
    if let timeout = option("timeout").flatMap(Double.init) { configuration.timeoutIntervalForRequest = timeout }
    return URLSession(configuration: configuration)
}

func single() async {
    let client = required("client")
    let base = URL(string: required("base-url"))!
    let key = required("key")
    let count = Int(required("count"))!
    let concurrency = Int(option("concurrency") ?? "1")!
    // The client's `maximumConcurrentRequests`, when not its default of 16.
    let maximum = option("max-concurrent").flatMap(Int.init)
    let ips = addresses(count)
    let work: @Sendable (String) async -> Outcome
    func sdkWork(_ sdk: IPDataClient) -> @Sendable (String) async -> Outcome {
        { ip in await Outcome { try await sdk.lookup(ip) } }
    }
    switch client {
    case "sdk-default":
        // What most users write: the default client, on URLSession.shared.
        let sdk =
            maximum.map {
                IPDataClient(apiKey: key, configuration: .init(baseURL: base, maximumConcurrentRequests: $0))
            } ?? IPDataClient(apiKey: key, baseURL: base)
        work = sdkWork(sdk)
    case "sdk":
        work = sdkWork(IPDataClient(apiKey: key, baseURL: base, configuration: .default))
    case "sdk-injected":
        // The SDK on a session without a delegate of its own (as injected sessions are).
        let sdk = IPDataClient(
            apiKey: key,
            configuration: .init(
                baseURL: base, connection: .session(injectedSession()), maximumConcurrentRequests: maximum ?? 16))
        work = sdkWork(sdk)
    case "urlsession", "urlsession-delegate", "urlsession-completion":
        let floor = PlainURLSessionClient(
            base: base, key: key, withDelegate: client == "urlsession-delegate",
            completionHandler: client == "urlsession-completion")
        work = { ip in await floor.lookup(ip) }
    case "user-shared", "user-default", "user-serialization":
        let floor = UserFloor(
            base: base, key: key, shared: client == "user-shared",
            reading: client == "user-serialization" ? .serialization : .decoder)
        work = { ip in await floor.lookup(ip) }
    default:
        fatalError("unknown --client \(client)")
    }
    // Warm-up: the connection, TLS, HTTP/2, and the first answers that set the SDK's limit.
    for index in 0..<20 { _ = await work("8.8.4.\(index)") }
    let cpuStart = cpuSeconds()
    let start = Date()
    let run = await runWindowed(ips, concurrency: concurrency, work)
    let seconds = Date().timeIntervalSince(start)
    let cpu = cpuSeconds() - cpuStart
    emit([
        "client": [
            "sdk": "ipdata-swift", "sdk-injected": "ipdata-swift (injected session)",
            "sdk-default": "ipdata-swift (default client, URLSession.shared)",
            "urlsession-delegate": "urlsession+jsondecoder (session delegate)",
            "urlsession-completion": "urlsession+jsondecoder (completion handler)",
            "user-shared": "URLSession.shared + JSONDecoder IPResponse",
            "user-default": "URLSession(.default) + JSONDecoder IPResponse",
            "user-serialization": "URLSession(.default) + JSONSerialization",
        ][client] ?? "urlsession+jsondecoder", "mode": "single", "count": count,
        "concurrency": concurrency, "seconds": seconds, "requests_per_second": Double(count) / seconds,
        "errors": count - run.count(.succeeded), "timeouts": run.count(.timedOut),
        "cpu_ms_per_request": cpu * 1_000 / Double(count), "latency_ms_p50": run.latency(0.5),
        "latency_ms_p99": run.latency(0.99), "latency_ms_max": run.latency(1),
    ])
}

func stream() async throws {
    let base = URL(string: required("base-url"))!
    let client = IPDataClient(apiKey: required("key"), baseURL: base, configuration: .default)
    let lines = LineSequence(path: required("file"))
    let concurrency = Int(option("concurrency") ?? "4")!
    let cpuStart = cpuSeconds()
    let start = Date()
    var (records, failures) = (0, 0)
    for try await result in client.lookupStream(lines, options: LookupStreamOptions(concurrency: concurrency)) {
        records += 1
        if result.error != nil { failures += 1 }
    }
    let seconds = Date().timeIntervalSince(start)
    emit([
        "client": "ipdata-swift lookupStream", "mode": "bulk", "ips": records, "concurrency": concurrency,
        "seconds": seconds, "ips_per_second": Double(records) / seconds, "errors": failures,
        "cpu_microseconds_per_address": (cpuSeconds() - cpuStart) / Double(max(1, records)) * 1_000_000,
    ])
}

func decode() throws {
    let body = try Data(contentsOf: URL(fileURLWithPath: required("fixture")))
    let iterations = Int(option("iterations") ?? "20000")!
    func measure(_ name: String, _ decodeOnce: () throws -> Void) rethrows {
        for _ in 0..<1_000 { try decodeOnce() }  // warm-up
        let start = Date()
        for _ in 0..<iterations { try decodeOnce() }
        let seconds = Date().timeIntervalSince(start)
        emit([
            "client": name, "mode": "decode", "count": iterations, "seconds": seconds, "bytes": body.count,
            "microseconds_per_decode": seconds / Double(iterations) * 1_000_000,
        ])
    }
    try measure("IPResponse through JSONDecoder") { _ = try JSONDecoder().decode(IPResponse.self, from: body) }
    let decoder = JSONDecoder()
    try measure("IPResponse through one shared JSONDecoder") { _ = try decoder.decode(IPResponse.self, from: body) }
    try measure("plain Codable struct") { _ = try JSONDecoder().decode(PlainLookup.self, from: body) }
    try measure("JSONSerialization") { _ = try JSONSerialization.jsonObject(with: body) }
    // What a transport pays to hand an answer over as `HTTPURLResponse`: nginx's headers of a lookup.
    let url = URL(string: "https://127.0.0.1:22443/8.8.8.8?api-key=test-key")!
    let headers = [
        "server": "nginx/1.22.1", "date": "Tue, 01 Dec 2026 12:00:00 GMT", "content-type": "application/json",
        "content-length": "\(body.count)", "access-control-allow-origin": "*",
    ]
    measure("HTTPURLResponse from 5 headers") {
        _ = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/2.0", headerFields: headers)
    }
}

/// The SDK's own work per lookup, without a network: a transport that answers at once, with
/// `body` to a lookup and `bulkBody` to `POST /bulk`.
struct CannedTransport: IPDataTransport {
    let body: Data
    var bulkBody = Data()

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/2", headerFields: nil)!
        return (request.httpMethod == "POST" ? bulkBody : body, response)
    }
}

/// `overhead`: `client.lookup` of distinct addresses through `CannedTransport` (so neither the
/// cache nor coalescing helps), against a plain `URLRequest` and `JSONDecoder`; with
/// `--bulk 100`, `bulkLookup` of that many distinct addresses a call, per address.
func overhead() async throws {
    let body = try Data(contentsOf: URL(fileURLWithPath: required("fixture")))
    let iterations = Int(option("iterations") ?? "50000")!
    let bulk = option("bulk").flatMap(Int.init)
    var bulkBody = Data("[".utf8)
    for index in 0..<(bulk ?? 0) {
        if index > 0 { bulkBody.append(UInt8(ascii: ",")) }
        bulkBody.append(body)
    }
    bulkBody.append(UInt8(ascii: "]"))
    let client = IPDataClient(
        apiKey: "k", configuration: .init(connection: .transport(CannedTransport(body: body, bulkBody: bulkBody))))
    let ips = addresses(iterations)
    if let bulk {
        let batches = stride(from: 0, to: ips.count, by: bulk).map { Array(ips[$0..<min($0 + bulk, ips.count)]) }
        for batch in batches.prefix(10) { _ = try await client.bulkLookup(batch) }
        let cpuStart = cpuSeconds()
        let start = Date()
        for batch in batches { _ = try await client.bulkLookup(batch) }
        let seconds = Date().timeIntervalSince(start)
        emit([
            "client": "ipdata-swift bulkLookup", "mode": "overhead", "count": iterations, "bulk": bulk,
            "microseconds_per_address": seconds / Double(iterations) * 1_000_000,
            "cpu_microseconds_per_address": (cpuSeconds() - cpuStart) / Double(iterations) * 1_000_000,
        ])
        return
    }
    for ip in ips.prefix(1_000) { _ = try await client.lookup(ip) }
    var cpuStart = cpuSeconds()
    var start = Date()
    for ip in ips { _ = try await client.lookup(ip) }
    let sdk = Date().timeIntervalSince(start) / Double(iterations) * 1_000_000
    let sdkCPU = (cpuSeconds() - cpuStart) / Double(iterations) * 1_000_000
    cpuStart = cpuSeconds()
    start = Date()
    for ip in ips {
        var request = URLRequest(url: URL(string: "https://api.ipdata.co/\(ip)?api-key=k")!)
        request.setValue("k", forHTTPHeaderField: "api-key")
        _ = try JSONDecoder().decode(PlainLookup.self, from: body)
    }
    let plain = Date().timeIntervalSince(start) / Double(iterations) * 1_000_000
    emit([
        "client": "ipdata-swift", "mode": "overhead", "count": iterations, "microseconds_per_lookup": sdk,
        "cpu_microseconds_per_lookup": sdkCPU, "plain_request_and_decode_microseconds": plain,
        "plain_cpu_microseconds": (cpuSeconds() - cpuStart) / Double(iterations) * 1_000_000,
    ])
}

switch arguments.first {
case "overhead": try await overhead()
case "single": await single()
case "stream": try await stream()
case "decode": try decode()
default:
    FileHandle.standardError.write(Data("usage: ipdata-benchmarks single|stream|decode|overhead …\n".utf8))
    exit(2)
}
