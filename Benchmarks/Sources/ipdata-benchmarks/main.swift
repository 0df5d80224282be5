// ipdata-benchmarks: measures this SDK against the local test server and prints one JSON line
// per measurement, in the shape Benchmarks/peers/record.py reads.
//
//   ipdata-benchmarks single --client sdk|urlsession --base-url URL --key KEY --count N --concurrency C
//   ipdata-benchmarks stream --base-url URL --key KEY --file PATH --concurrency C
//   ipdata-benchmarks decode --fixture PATH --iterations N
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

/// Runs `work` for every element with at most `concurrency` in flight; returns the failures.
func runWindowed(
    _ items: [String], concurrency: Int, _ work: @escaping @Sendable (String) async -> Bool
) async -> Int {
    await withTaskGroup(of: Bool.self) { group in
        var failures = 0
        var next = 0
        while next < min(concurrency, items.count) {
            let item = items[next]
            group.addTask { await work(item) }
            next += 1
        }
        while let succeeded = await group.next() {
            if !succeeded { failures += 1 }
            if next < items.count {
                let item = items[next]
                group.addTask { await work(item) }
                next += 1
            }
        }
        return failures
    }
}

func single() async {
    let client = required("client")
    let base = URL(string: required("base-url"))!
    let key = required("key")
    let count = Int(required("count"))!
    let concurrency = Int(option("concurrency") ?? "1")!
    let ips = addresses(count)
    let work: @Sendable (String) async -> Bool
    switch client {
    case "sdk-default":
        // What most users write: the default client, on URLSession.shared.
        let sdk = IPDataClient(apiKey: key, baseURL: base)
        _ = try? await sdk.lookup("8.8.4.4")
        work = { ip in (try? await sdk.lookup(ip)) != nil }
    case "sdk":
        let sdk = IPDataClient(apiKey: key, baseURL: base, configuration: .default)
        _ = try? await sdk.lookup("8.8.4.4")  // warm-up: connection and TLS
        work = { ip in (try? await sdk.lookup(ip)) != nil }
    case "sdk-injected":
        // The SDK on a session without a delegate of its own (as injected sessions are).
        let sdk = IPDataClient(apiKey: key, baseURL: base, session: URLSession(configuration: .default))
        _ = try? await sdk.lookup("8.8.4.4")
        work = { ip in (try? await sdk.lookup(ip)) != nil }
    case "urlsession", "urlsession-delegate", "urlsession-completion":
        let floor = PlainURLSessionClient(
            base: base, key: key, withDelegate: client == "urlsession-delegate",
            completionHandler: client == "urlsession-completion")
        _ = await floor.lookup("8.8.4.4")
        work = { ip in await floor.lookup(ip) }
    default:
        fatalError("unknown --client \(client)")
    }
    let start = Date()
    let failures = await runWindowed(ips, concurrency: concurrency, work)
    let seconds = Date().timeIntervalSince(start)
    emit([
        "client": [
            "sdk": "ipdata-swift", "sdk-injected": "ipdata-swift (injected session)",
            "sdk-default": "ipdata-swift (default client, URLSession.shared)",
            "urlsession-delegate": "urlsession+jsondecoder (session delegate)",
            "urlsession-completion": "urlsession+jsondecoder (completion handler)",
        ][client] ?? "urlsession+jsondecoder", "mode": "single", "count": count,
        "concurrency": concurrency, "seconds": seconds, "requests_per_second": Double(count) / seconds,
        "errors": failures,
    ])
}

func stream() async throws {
    let base = URL(string: required("base-url"))!
    let client = IPDataClient(apiKey: required("key"), baseURL: base, configuration: .default)
    let lines = LineSequence(path: required("file"))
    let concurrency = Int(option("concurrency") ?? "4")!
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
    try measure("plain Codable struct") { _ = try JSONDecoder().decode(PlainLookup.self, from: body) }
    try measure("JSONSerialization") { _ = try JSONSerialization.jsonObject(with: body) }
}

/// The SDK's own work per lookup, without a network: a transport that answers at once.
struct CannedTransport: IPDataTransport {
    let body: Data
    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        (body, HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/2", headerFields: nil)!)
    }
}

func overhead() async throws {
    let body = try Data(contentsOf: URL(fileURLWithPath: required("fixture")))
    let iterations = Int(option("iterations") ?? "50000")!
    let client = IPDataClient(apiKey: "k", configuration: .init(connection: .transport(CannedTransport(body: body))))
    let ips = addresses(iterations)
    for ip in ips.prefix(1_000) { _ = try await client.lookup(ip) }
    var start = Date()
    for ip in ips { _ = try await client.lookup(ip) }
    let sdk = Date().timeIntervalSince(start) / Double(iterations) * 1_000_000
    start = Date()
    for ip in ips {
        var request = URLRequest(url: URL(string: "https://api.ipdata.co/\(ip)?api-key=k")!)
        request.setValue("k", forHTTPHeaderField: "api-key")
        _ = try JSONDecoder().decode(PlainLookup.self, from: body)
    }
    let plain = Date().timeIntervalSince(start) / Double(iterations) * 1_000_000
    emit([
        "client": "ipdata-swift", "mode": "overhead", "count": iterations, "microseconds_per_lookup": sdk,
        "plain_request_and_decode_microseconds": plain,
    ])
}

switch arguments.first {
case "overhead": try await overhead()
case "single": await single()
case "stream": try await stream()
case "decode": try decode()
default:
    FileHandle.standardError.write(Data("usage: ipdata-benchmarks single|stream|decode …\n".utf8))
    exit(2)
}
