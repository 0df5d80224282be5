// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

/// `ipdata grep` on the material an analyst has: a proxy and access log whose expected addresses
/// were written down as it was made, CRLF files, files that cannot be read, networks and
/// reverse-DNS names, checked against Python's `ipaddress` where it has an answer.
final class GrepLogTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    /// Runs `python3 -c script` with `input` on standard input; skips the test without python3.
    private func python(_ script: String, input: String) throws -> String {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("needs python3 to check the output with an independent reader")
        }
        let run = try BuiltBinary.run(
            ["-c", script], executable: python, environment: ["PATH": "/usr/bin:/bin"], stdin: makeFile(input))
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    // MARK: A proxy and access log

    /// A day of a proxy's log (squid's native format) and a web server's (nginx's combined
    /// format), mixed, with the addresses each line holds, as they were written into it: the
    /// client's, one in the URL's path or host, the peer squid went to, one in a referrer. User
    /// agents carry versions that read like addresses (`Chrome/119.0.0.0`), which are none.
    private struct ProxyLog {
        var text = ""
        var expected: [String] = []
        /// How many lines hold a version that would be an IPv4 address on its own.
        var addressLikeVersions = 0
    }

    private static let userAgents = [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
        "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 OPR/105.0.0.0",
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) YaBrowser/23.9.1.0 Mobile Safari/537.36",
        "AppleCoreMedia/1.0.0.21 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)",
        "Dalvik/2.1.0 (Linux; U; Android 13; SM-S911B Build/TP1A.220624.014)",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "curl/8.4.0", "python-requests/2.31.0", "Go-http-client/1.1", "okhttp/4.12.0",
    ]

    private static func makeProxyLog(lines: Int) -> ProxyLog {
        var log = ProxyLog()
        // A fixed sequence, so that the log is the same on every run.
        var generator = SeededGenerator(seed: 0x1DA7_A5EE_D2026)
        func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        func hex(_ bound: Int) -> String { String(1 + next(bound), radix: 16) }
        // Addresses as grep prints them: dotted decimal, compressed lower-case IPv6; hot ones repeat.
        func address() -> String {
            switch next(10) {
            case 0, 1: return ["8.8.8.8", "1.1.1.1", "104.16.132.229"][next(3)]
            case 2: return "10.\(next(256)).\(next(256)).\(1 + next(254))"
            case 3: return "2a01:4f8:\(hex(0xFFFE)):\(hex(0xFFFE))::\(hex(0xFFFE))"
            default: return "\(1 + next(223)).\(next(256)).\(next(256)).\(1 + next(254))"
            }
        }
        func ipv4() -> String { "\(11 + next(212)).\(next(256)).\(next(256)).\(1 + next(254))" }
        func ipv6() -> String { "2606:4700:\(hex(0xFFFE))::\(hex(0xFFFE))" }
        for index in 0..<lines {
            var expected: [String] = []
            let agent = userAgents[next(userAgents.count)]
            if agent.contains("/119.0.0.0") || agent.contains("/1.0.0.21") || agent.contains("/23.9.1.0") {
                log.addressLikeVersions += 1
            }
            let client = address()
            expected.append(client)
            // The URL asked for, and the addresses it holds.
            let url: String
            switch next(9) {
            case 0:
                let ip = ipv4()
                (url, expected) = ("https://api.ipdata.co/\(ip)?api-key=REDACTED", expected + [ip])
            case 1:
                let ip = ipv4()
                (url, expected) = ("/v1/lookup/\(ip)/json", expected + [ip])
            case 2:
                let ip = ipv6()
                (url, expected) = ("/ip/\(ip)/asn", expected + [ip])
            case 3:
                let ip = ipv6()
                (url, expected) = ("http://[\(ip)]:8080/status", expected + [ip])
            case 4:
                let ip = ipv4()
                (url, expected) = ("https://api.ipdata.co/v1/\(ip)/threat", expected + [ip])
            case 5:
                let ip = ipv4()
                (url, expected) = ("/api/geo?ip=\(ip)&fields=country_code", expected + [ip])
            case 6: url = "/static/js/app.\(hex(0xFF_FFFF)).js"
            case 7: url = "/download/v1.2.3.4/setup-2.0.1.exe"
            default: url = "https://cdn.example.com/assets/img/logo@2x.png"
            }
            let second = String(format: "%02d", index % 60)
            if next(2) == 0 {
                // squid: time, elapsed, client, code/status, bytes, method, URL, user, hierarchy/peer, type.
                let peer = ipv4()
                expected.append(peer)
                log.text +=
                    "1796032\(String(format: "%03d", index % 1000)).\(next(1000)) \(next(3000)) \(client) "
                    + "TCP_MISS/200 \(next(90_000)) GET \(url) - HIER_DIRECT/\(peer) application/json\n"
            } else {
                var referrer = "-"
                if next(4) == 0 {
                    let ip = ipv4()
                    (referrer, expected) = ("https://dash.example.org/ip/\(ip)", expected + [ip])
                }
                log.text +=
                    "\(client) - - [30/Nov/2026:10:00:\(second) +0000] \"GET \(url) HTTP/1.1\" 200 \(next(90_000)) "
                    + "\"\(referrer)\" \"\(agent)\"\n"
            }
            log.expected += expected
        }
        return log
    }

    /// Precision and recall of `found` against `expected`, counting each address as often as
    /// it occurs, written to three places.
    private func precisionAndRecall(found: [String], expected: [String]) -> (String, String) {
        var left = Dictionary(expected.map { ($0, 1) }, uniquingKeysWith: +)
        var hits = 0
        for address in found where (left[address] ?? 0) > 0 {
            left[address]! -= 1
            hits += 1
        }
        let precision = found.isEmpty ? 0 : Double(hits) / Double(found.count)
        let recall = expected.isEmpty ? 0 : Double(hits) / Double(expected.count)
        return (String(format: "%.3f", precision), String(format: "%.3f", recall))
    }

    func testEveryAddressOfAProxyLogIsFoundAndNoVersionIs() throws {
        let log = Self.makeProxyLog(lines: 6_000)
        XCTAssertGreaterThan(log.addressLikeVersions, 1_000, "the log should hold versions that read as addresses")
        let run = try ipdata(["grep", "-o", makeFile(log.text, named: "access.log").path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        let (precision, recall) = precisionAndRecall(found: run.stdoutLines, expected: log.expected)
        XCTAssertEqual(precision, "1.000")
        XCTAssertEqual(recall, "1.000")
        XCTAssertEqual(run.stdoutLines, log.expected)
    }

    // MARK: Lines as they are

    /// Lines are printed byte for byte: a CRLF line keeps its `\r`, an LF line has none, and the
    /// last line, without a line end, gets a `\n` (as GNU grep writes it).
    func testALineIsPrintedByteForByteWithItsCR() throws {
        var text = ""
        var expected = ""
        for index in 0..<3_000 {
            let ending = index % 3 == 0 ? "\n" : "\r\n"
            let line = index % 2 == 0 ? "\(index) from 203.0.113.\(index % 250 + 1) \"é\"" : "\(index) nothing here"
            text += line + ending
            if index % 2 == 0 { expected += line + ending }
        }
        text += "last 198.51.100.7"
        expected += "last 198.51.100.7\n"
        let run = try ipdata(["grep", makeFile(text).path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutBytes, Data(expected.utf8))
    }

    // MARK: Inputs that cannot be read

    /// As GNU grep: the lines of the inputs that can be read are printed, in order, each input
    /// that cannot be read is named on standard error, and the exit status is 2.
    func testTheOtherFilesAreSearchedWhenOneCannotBeRead() throws {
        let first = try makeFile("a 192.0.2.1\nb nothing\n", named: "first.log").path
        let last = try makeFile("c 192.0.2.3\n", named: "last.log").path
        let folder = try makeTemporaryDirectory().path
        let missing = folder + "/gone.log"
        let run = try ipdata(["grep", first, missing, folder, last], key: .absent)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "\(first):a 192.0.2.1\n\(last):c 192.0.2.3\n")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: cannot read \(missing): No such file or directory",
                "ipdata: cannot read \(folder): Is a directory",
            ])
        // GNU grep agrees on the status.
        let gnu = try BuiltBinary.run(
            ["-E", "[0-9]+\\.[0-9]+", first, missing, folder, last], executable: URL(fileURLWithPath: "/usr/bin/grep"),
            environment: [:])
        XCTAssertEqual(gnu.status, 2, gnu.stderr)
        XCTAssertEqual(gnu.stdout, run.stdout)
    }

    // MARK: Networks

    /// `--cidrs` prints networks that Python's `ipaddress` reads as networks, strictly: one
    /// written with host bits set is the network that holds it.
    func testEveryNetworkPrintedIsANetwork() throws {
        let written = [
            "10.0.0.1/8", "10.0.0.0/8", "192.168.1.77/24", "172.16.5.4/12", "203.0.113.9/32", "198.51.100.255/25",
            "2001:db8::1/32", "2001:db8:0:1::5/64", "2a01:4f8:1c1c::/48", "0.0.0.1/0",
        ]
        let text = written.enumerated().map { "rule \($0.offset): allow \($0.element) # inet\n" }.joined()
        let run = try ipdata(["grep", "-o", "--cidrs", makeFile(text).path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        let check = """
            import ipaddress, sys
            written, printed = sys.stdin.read().split("--\\n")
            for token, line in zip(written.split(), printed.split()):
                ipaddress.ip_network(line, strict=True)
                assert line == str(ipaddress.ip_network(token, strict=False)), (token, line)
            print(len(printed.split()))
            """
        let checked = try python(check, input: written.joined(separator: "\n") + "\n--\n" + run.stdout)
        XCTAssertEqual(checked, "\(written.count)\n")
    }

    // MARK: Reverse-DNS names

    /// A reverse-DNS name, as Python's `ipaddress` writes it (`reverse_pointer`), is the address
    /// it names; a zone or a malformed name is none.
    func testAReverseDNSNameIsTheAddressItNames() throws {
        let addresses = (0..<300).map { index in
            index % 3 == 0
                ? "2a01:4f8:\(String(index + 1, radix: 16))::\(String(index * 7 + 1, radix: 16))"
                : "\(index % 200 + 11).\(index % 7).\(index % 256).\(index % 250 + 1)"
        }
        let names = try python(
            "import ipaddress, sys\nfor a in sys.stdin.read().split(): print(ipaddress.ip_address(a).reverse_pointer + '.')",
            input: addresses.joined(separator: "\n"))
        let zone = "PTR 2.1.in-addr.arpa 5.4.3.2.1.in-addr.arpa 1.2.3.4.in-addr.arpanet 2a01:4f8::g1\n"
        let run = try ipdata(["grep", "-o", makeFile(zone + names).path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines, addresses)
    }
}

/// What `ipdata grep --cidrs` prints is what `ipdata bulk` reads; a network written with host bits
/// set is named by `bulk` as such, and nothing of it is sent.
final class GrepNetworksIntoBulkTests: CommandLineTestCase {
    func testANetworkWithHostBitsSetIsRefusedNamingTheNetwork() throws {
        let backendLog = URL(fileURLWithPath: server["IPDATA_TEST_BACKEND_LOG"] ?? "")
        let backendMark = try Data(contentsOf: backendLog).count
        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "--format", "csv", "-f", "ip", "--no-progress", "-q"] + base,
            stdin: "10.0.0.1/8\n8.8.8.8\n2001:db8::1/32\n")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.stdoutLines,
            [
                "ip,error", "10.0.0.1/8,10.0.0.1/8 has host bits set: the network is 10.0.0.0/8", "8.8.8.8,",
                "2001:db8::1/32,2001:db8::1/32 has host bits set: the network is 2001:db8::/32",
            ])
        let sent = try accessEntries(since: mark, atLeast: 1)
        XCTAssertEqual(sent.map(\.uri), ["/bulk"])
        // The one request held 8.8.8.8 alone: `["8.8.8.8"]`, 11 bytes.
        let backend = try Data(contentsOf: backendLog).dropFirst(backendMark)
        XCTAssertTrue(
            String(decoding: backend, as: UTF8.self).contains("\"body_len\":11,"),
            String(decoding: backend, as: UTF8.self))
    }

    func testTheNetworksGrepPrintsAreLookedUp() throws {
        let grep = try ipdata(["grep", "-o", "--cidrs"], key: .absent, stdin: "inet 8.8.8.5/30 brd 8.8.8.7\n")
        XCTAssertEqual(grep.stdoutLines, ["8.8.8.4/30", "8.8.8.7"])
        let bulk = try ipdata(
            ["bulk", "--format", "csv", "-f", "ip", "--no-progress", "-q"] + base, stdin: grep.stdout)
        XCTAssertEqual(bulk.status, 0, bulk.stderr)
        XCTAssertEqual(bulk.stdoutLines, ["ip,error", "8.8.8.4,", "8.8.8.5,", "8.8.8.6,", "8.8.8.7,", "8.8.8.7,"])
    }
}
#endif
