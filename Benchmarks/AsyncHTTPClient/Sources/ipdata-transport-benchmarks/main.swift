// ipdata-transport-benchmarks --transport ahc|urlsession --base-url URL --key KEY --count N --concurrency C
//
// Looks up N distinct addresses through an IPDataClient over the chosen transport, C in flight,
// after a warm-up, and prints one JSON line: requests per second and CPU milliseconds per request.
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

let transport = option("transport") ?? "ahc"
let baseURL = URL(string: option("base-url") ?? "https://127.0.0.1:28443")!
let key = option("key") ?? "test-key"
let count = Int(option("count") ?? "") ?? 2_000
let concurrency = Int(option("concurrency") ?? "") ?? 1

let connection: IPDataClient.Connection
switch transport {
case "ahc": connection = .transport(AsyncHTTPClientTransport())
case "urlsession": connection = .owned(.ephemeral)
default: fatalError("unknown --transport \(transport)")
}
let client = IPDataClient(
    apiKey: key,
    configuration: .init(baseURL: baseURL, connection: connection, maximumConcurrentRequests: max(16, concurrency)))
let addresses = (0..<count).map { "8.\($0 / 65_536 % 256).\($0 / 256 % 256).\($0 % 256)" }

// Warm-up: the connection, TLS, HTTP/2.
for index in 0..<20 { _ = try await client.lookup("9.9.9.\(index)") }

let cpuStart = cpuSeconds()
let start = Date()
var failures = 0
if concurrency <= 1 {
    for address in addresses where (try? await client.lookup(address)) == nil { failures += 1 }
} else {
    failures = await withTaskGroup(of: Bool.self) { group in
        var next = 0
        var failed = 0
        for _ in 0..<min(concurrency, addresses.count) {
            let address = addresses[next]
            next += 1
            group.addTask { (try? await client.lookup(address)) != nil }
        }
        while let ok = await group.next() {
            if !ok { failed += 1 }
            if next < addresses.count {
                let address = addresses[next]
                next += 1
                group.addTask { (try? await client.lookup(address)) != nil }
            }
        }
        return failed
    }
}
let seconds = Date().timeIntervalSince(start)
let cpu = cpuSeconds() - cpuStart
print(
    #"{"transport":"\#(transport)","count":\#(count),"concurrency":\#(concurrency),"seconds":\#(seconds),"#
        + #""requests_per_second":\#(Double(count) / seconds),"cpu_ms_per_request":\#(cpu * 1000 / Double(count)),"#
        + #""failures":\#(failures)}"#)
exit(0)
