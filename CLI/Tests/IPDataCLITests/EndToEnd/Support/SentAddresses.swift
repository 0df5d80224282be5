// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// What reached the test server, address by address, from its backend log (which names the
/// addresses of each bulk request), and an input list such as an analyst's, to count them on.
extension CommandLineTestCase {
    /// The size of the backend log now: entries written after it are this test's.
    func backendLogMark() -> UInt64 {
        let path = server["IPDATA_TEST_BACKEND_LOG"] ?? ""
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// The addresses the normal mode's requests since `mark` carried, one entry per address sent:
    /// those of each `POST /bulk`, and the address of each single lookup (`GET /8.8.8.8`,
    /// `GET /8.8.8.8/country_code`). Waits until `requests` requests are logged (or 5 s).
    func sentAddresses(since mark: UInt64, requests: Int) throws -> (requests: Int, addresses: [String]) {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: server["IPDATA_TEST_BACKEND_LOG"] ?? ""))
            try handle.seek(toOffset: mark)
            let data = try handle.readToEnd() ?? Data()
            try handle.close()
            var (count, addresses) = (0, [String]())
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let entry = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                    entry["mode"] as? String == "normal", let path = entry["path"] as? String
                else { continue }
                count += 1
                if let bulk = entry["bulk_addresses"] as? [String] {
                    addresses += bulk
                } else {
                    var segments = path.split(separator: "/").map(String.init)
                    if segments.first == "delay" { segments.removeFirst(min(2, segments.count)) }
                    if let first = segments.first, first != "bulk" {
                        addresses.append(first.removingPercentEncoding ?? first)
                    }
                }
            }
            if count >= requests || Date() > deadline { return (count, addresses) }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// What Python's `ipaddress` module makes of `script` run over `input`: its standard output.
    func python(_ script: String, input: URL, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try BuiltBinary.run(
            ["python3", "-c", script, input.path], executable: URL(fileURLWithPath: "/usr/bin/env"),
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], file: file,
            line: line)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return run.stdout
    }
}

/// A list as an analyst has one: `lines` addresses, of which 360 are distinct: 330 public
/// (IPv4, and IPv6 written in several ways), 30 private, loopback or reserved; a few are hot,
/// repeated on many lines, the rest come a few times each, in a fixed pseudo-random order.
enum AnalystList {
    /// The 30 addresses the API refuses, each of a block of its own; Python's `ipaddress` and the
    /// test server agree on each of them.
    static let nonPublic = [
        "10.0.0.1", "10.200.3.4", "172.16.5.5", "172.31.255.254", "192.168.0.1", "192.168.100.7", "127.0.0.1",
        "127.1.2.3", "169.254.169.254", "0.1.2.3", "100.64.0.1", "100.127.3.3", "198.18.0.1", "198.19.200.2",
        "192.0.2.10", "198.51.100.5", "203.0.113.9", "224.0.0.1", "239.1.2.3", "240.0.0.1", "255.255.255.255",
        "::1", "fe80::1", "fd00::5", "fc00::1", "2001::1", "2001:db8::7", "2001:2::9", "ff02::1", "FE80::ABCD",
    ]

    /// 300 public IPv4 and 30 public IPv6 addresses.
    static let publicOnes =
        (0..<300).map { "9.\($0 / 200 + 1).\($0 % 200 / 10).\($0 % 10 + 1)" }
        + (0..<30).map { "2606:4700:\($0 + 1)::\(String($0 + 10, radix: 16))" }

    /// The distinct addresses, public first.
    static var distinct: [String] { publicOnes + nonPublic }

    /// The list: the first 360 lines name each address once (in a shuffled order, some IPv6 in
    /// upper case or written out in full, which is the same address), the rest repeat them, half
    /// of them among ten hot addresses.
    static func lines(_ count: Int = 3_000) -> [String] {
        var seed: UInt64 = 0x1234_5678
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var order = distinct
        for index in order.indices.reversed() { order.swapAt(index, random(index + 1)) }
        let hot =
            [publicOnes[0], publicOnes[1], publicOnes[2], publicOnes[300], "10.0.0.1", "127.0.0.1"]
            + [publicOnes[7], publicOnes[8], publicOnes[301], "2001::1"]
        var lines = order
        while lines.count < count {
            lines.append(random(2) == 0 ? hot[random(hot.count)] : order[random(order.count)])
        }
        return lines.enumerated().map { index, address in
            guard address.contains(":"), address.hasPrefix("2606") else { return address }
            switch index % 3 {
            case 0: return address.uppercased()
            case 1: return address.replacingOccurrences(of: "::", with: ":0:0:0:0:")
            default: return address
            }
        }
    }

    /// Python, given the list's path: prints the distinct addresses' canonical forms (by
    /// `ipaddress`) that are global, one a line, sorted; then `--`, then those that are not.
    static let classify = """
        import ipaddress, sys
        seen = {str(ipaddress.ip_address(line.strip())) for line in open(sys.argv[1]) if line.strip()}
        def refused(a):
            ip = ipaddress.ip_address(a)
            return ip.is_multicast or not ip.is_global
        print("\\n".join(sorted(a for a in seen if not refused(a))))
        print("--")
        print("\\n".join(sorted(a for a in seen if refused(a))))
        """
}
#endif
