// ipdata-transport-benchmarks --transport ahc|ahc-http1|urlsession|bare-ahc --base-url URL --key KEY --count N
//                             --concurrency C [--mode single|bulk]
//
// single: looks up N distinct addresses, C in flight, after a warm-up: through an IPDataClient over
// AsyncHTTPClientTransport (ahc) or its own URLSession (urlsession), or through a bare
// AsyncHTTPClient loop that decodes each body into a plain Codable struct (bare-ahc, the floor).
// bulk: streams N distinct addresses through the client's lookupStream (bulk requests of 100, C in
// flight). Prints one JSON line: requests (or addresses) per second, CPU milliseconds per request
// (or per 1,000 addresses) and the process's peak RSS.
import AsyncHTTPClient
import Foundation
import IPData
import IPDataAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

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

/// The process's peak resident set size, in MB (Linux reports kilobytes, macOS bytes).
func peakRSSMegabytes() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576
    #endif
}

let transport = option("transport") ?? "ahc"
let mode = option("mode") ?? "single"
let baseURL = URL(string: option("base-url") ?? "https://127.0.0.1:28443")!
let key = option("key") ?? "test-key"
let count = Int(option("count") ?? "") ?? 2_000
let concurrency = Int(option("concurrency") ?? "") ?? 1
let addresses = (0..<count).map { "8.\($0 / 65_536 % 256).\($0 / 256 % 256).\($0 % 256)" }

/// Runs `lookup` for every address, `concurrency` at a time; returns how many failed.
func lookUpAll(_ lookup: @escaping @Sendable (String) async -> Bool) async -> Int {
    if concurrency <= 1 {
        var failed = 0
        for address in addresses where await !lookup(address) { failed += 1 }
        return failed
    }
    return await withTaskGroup(of: Bool.self) { group in
        var next = 0
        var failed = 0
        for _ in 0..<min(concurrency, addresses.count) {
            let address = addresses[next]
            next += 1
            group.addTask { await lookup(address) }
        }
        while let ok = await group.next() {
            if !ok { failed += 1 }
            if next < addresses.count {
                let address = addresses[next]
                next += 1
                group.addTask { await lookup(address) }
            }
        }
        return failed
    }
}

/// The fields a plain client would read from an answer.
struct PlainLookup: Decodable {
    let ip: String
    let country_name: String?
    let city: String?
}

/// One lookup through `client` without the SDK: the URL, the request, the body, a decode.
func bareLookup(_ client: HTTPClient, _ address: String) async -> Bool {
    var request = HTTPClientRequest(url: baseURL.absoluteString + "/" + address + "?api-key=" + key)
    request.headers.add(name: "Accept", value: "application/json")
    do {
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 10 * 1_048_576)
        guard response.status == .ok else { return false }
        return (try? JSONDecoder().decode(PlainLookup.self, from: Data(body.readableBytesView))) != nil
    } catch {
        return false
    }
}

let lookup: @Sendable (String) async -> Bool
let client: IPDataClient?
switch transport {
case "ahc", "ahc-http1", "urlsession":
    let connection: IPDataClient.Connection
    switch transport {
    case "ahc": connection = .transport(AsyncHTTPClientTransport())
    case "ahc-http1":
        // HTTP/1.1 only, the pool's connections (8 by default) each carrying one request at a time.
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.httpVersion = .http1Only
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        connection = .transport(AsyncHTTPClientTransport(client: http))
    default: connection = .owned(.ephemeral)
    }
    let made = IPDataClient(
        apiKey: key,
        configuration: .init(
            baseURL: baseURL, connection: connection, maximumConcurrentRequests: max(16, concurrency)))
    client = made
    lookup = { address in (try? await made.lookup(address)) != nil }
case "bare-ahc":
    let http = AsyncHTTPClientTransport.sharedClient
    client = nil
    lookup = { address in await bareLookup(http, address) }
default:
    fatalError("unknown --transport \(transport)")
}

// Warm-up: the connection, TLS, HTTP/2.
for index in 0..<20 { _ = await lookup("9.9.9.\(index)") }

let cpuStart = cpuSeconds()
let start = Date()
var failures = 0
switch mode {
case "single":
    failures = await lookUpAll(lookup)
case "bulk":
    guard let client else { fatalError("--mode bulk needs --transport ahc or urlsession") }
    for try await result in client.lookupStream(addresses, options: .init(concurrency: concurrency))
    where result.response == nil {
        failures += 1
    }
default:
    fatalError("unknown --mode \(mode)")
}
let seconds = Date().timeIntervalSince(start)
let cpu = cpuSeconds() - cpuStart
print(
    #"{"transport":"\#(transport)","mode":"\#(mode)","count":\#(count),"concurrency":\#(concurrency),"#
        + #""seconds":\#(seconds),"requests_per_second":\#(Double(count) / seconds),"#
        + #""cpu_ms_per_request":\#(cpu * 1000 / Double(count)),"peak_rss_mb":\#(peakRSSMegabytes()),"#
        + #""failures":\#(failures)}"#)
exit(0)
