// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

/// `ipdata filter`, run as fail2ban or cron would, against the local API server, on a log that
/// Python writes with the lines it expects kept (its `ipaddress` decides which addresses are
/// inside the networks): thousands of lines, repeated addresses, IPv6, CRLF, a byte order mark,
/// bytes that are not UTF-8, garbage and private addresses.
final class FilterCommandTests: CommandLineTestCase {
    /// The expression of the generated log: networks Python checks, the Tor exit and the AU
    /// address of the server's fixtures.
    private let expression = "ip in [45.0.0.0/8, 2a00:1450::/32] or threat.is_tor or country_code == 'AU'"

    /// Writes `access.log`, `kept.log` (the lines the expression keeps), `inverted.log` (those
    /// -v keeps) and `public.txt` (the distinct public addresses, one a line) into `folder`.
    private static let generator = #"""
        import ipaddress, random, sys, os
        count, seed, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        rng = random.Random(seed)
        NETWORKS = [ipaddress.ip_network('45.0.0.0/8'), ipaddress.ip_network('2a00:1450::/32')]
        HOT = {'185.220.101.1': True, '1.1.1.1': True, '8.8.8.8': False, '2001:4860:4860::8844': False}
        def v4(first):
            return str(ipaddress.IPv4Address((first << 24) + rng.randrange(1 << 24)))
        def v6(prefix):
            return str(ipaddress.IPv6Address(int(ipaddress.IPv6Address(prefix)) + rng.randrange(1 << 64)))
        pool = [v4(45) for _ in range(60)] + [v4(rng.choice([23, 62, 77, 91, 151])) for _ in range(60)]
        pool += [v6('2a00:1450:4000::') for _ in range(30)] + [v6('2a03:2880::') for _ in range(30)]
        pool += list(HOT)
        private = ['10.1.2.3', '192.168.0.10', '127.0.0.1', 'fe80::1', '172.16.5.4']
        def matches(a):
            if a in HOT: return HOT[a]
            address = ipaddress.ip_address(a)
            return any(address in n for n in NETWORKS)
        def shown(a, form):
            if ':' in a and form == 1: return '[%s]:443' % a
            if ':' not in a and form == 1: return a + ':22'
            return a
        log, kept, inverted, seen = [], [], [], set()
        for number in range(count):
            kind = rng.random()
            addresses = []
            if kind < 0.05:
                line = rng.choice(['', 'no address here', 'build 1.2.3.4.5 of Chrome/119.0.0.0', '--- MARK ---'])
            elif kind < 0.1:
                addresses = [rng.choice(private)]
                line = 'Accepted publickey for admin from %s' % shown(addresses[0], rng.randrange(2))
            elif kind < 0.2:
                addresses = [rng.choice(pool), rng.choice(private + pool)]
                line = 'proxy %s -> %s' % (shown(addresses[0], 1), addresses[1])
            else:
                addresses = [rng.choice(pool) if rng.random() < 0.7 else rng.choice(list(HOT))]
                line = '%s - - [01/Dec/2026:10:%02d:00 +0000] "GET /x HTTP/1.1" 200 %d' % (
                    shown(addresses[0], rng.randrange(2)), number % 60, number)
            raw = line.encode()
            if number % 97 == 5: raw += b' \xff\xfe not utf-8'
            if number == 0: raw = b'\xef\xbb\xbf' + raw
            end = b'\r\n' if rng.random() < 0.2 else b'\n'
            if number == count - 1: end = b''
            log.append(raw + end)
            public = [a for a in addresses if ipaddress.ip_address(a).is_global]
            seen.update(public)
            hit = any(matches(a) for a in public)
            # A printed line ends as it did; a last line without a line end gets one, as grep's.
            out = raw + (end or b'\n')
            if hit: kept.append(out)
            elif public: inverted.append(out)
        def write(name, lines):
            with open(os.path.join(folder, name), 'wb') as f: f.write(b''.join(lines))
        write('access.log', log)
        write('kept.log', kept)
        write('inverted.log', inverted)
        write('public.txt', [(a + '\n').encode() for a in sorted(seen)])
        """#

    private func log(count: Int, seed: Int) throws -> URL {
        let folder = try makeTemporaryDirectory()
        _ = try ToolRun.output("python3", ["-c", Self.generator, String(count), String(seed), folder.path])
        return folder
    }

    func testKeepsTheLinesPythonExpectsByteForByteAndSendsEachAddressOnce() throws {
        let folder = try log(count: 4_000, seed: 26)
        let publicAddresses = Set(
            try String(contentsOf: folder.appendingPathComponent("public.txt"), encoding: .utf8).split(
                separator: "\n"
            ).map(String.init))
        XCTAssertGreaterThan(publicAddresses.count, 150)
        let mark = backendLogMark()
        let run = try ipdata(
            ["filter", "--where", expression, folder.appendingPathComponent("access.log").path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let expected = try Data(contentsOf: folder.appendingPathComponent("kept.log"))
        XCTAssertGreaterThan(expected.count, 10_000)
        XCTAssertEqual(run.stdoutBytes, expected, "the kept lines, byte for byte, in order")
        let sent = try sentAddresses(since: mark, requests: (publicAddresses.count + 99) / 100)
        XCTAssertEqual(sent.addresses.count, publicAddresses.count, "each distinct public address sent once")
        XCTAssertEqual(Set(sent.addresses), publicAddresses, "no private address sent")
    }

    func testInvertedKeepsTheLinesWhoseAddressesAllFail() throws {
        let folder = try log(count: 2_000, seed: 7)
        let run = try ipdata(
            ["filter", "-v", "--where", expression, folder.appendingPathComponent("access.log").path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutBytes, try Data(contentsOf: folder.appendingPathComponent("inverted.log")))
    }

    func testStandardInputTooAndARepeatRunIsAnsweredByTheCache() throws {
        let folder = try log(count: 500, seed: 3)
        let text = try String(decoding: Data(contentsOf: folder.appendingPathComponent("access.log")), as: UTF8.self)
        let cache = ["IPDATA_CACHE_DIR": try makeTemporaryDirectory().path]
        let first = try ipdata(["filter", "--where", "threat.is_tor"] + base, stdin: text, extra: cache)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdoutLines.allSatisfy { $0.contains("185.220.101.1") }, first.stdout)
        let mark = accessLogMark()
        let second = try ipdata(["filter", "--where", "threat.is_tor"] + base, stdin: text, extra: cache)
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0, "every answer came from the cache")
    }

    func testExitsOneWhenNoLineMatches() throws {
        let folder = try log(count: 300, seed: 5)
        let run = try ipdata(
            ["filter", "--where", "country_code == 'ZZ'", folder.appendingPathComponent("access.log").path] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "")
    }

    func testABadExpressionIsOneLineWithItsColumnAndSendsNothing() throws {
        let mark = backendLogMark()
        let run = try ipdata(["filter", "--where", "threat.scores.threat_score >= ", "-"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.hasPrefix("ipdata: --where: expected a value after '>=' at column 31"), run.stderr)
        let typo = try ipdata(["filter", "--where", "thret.is_tor", "-"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("unknown field thret at column 1: did you mean threat?"), typo.stderr)
        XCTAssertEqual(try sentAddresses(since: mark, requests: 0).requests, 0)
    }

    func testAnUnreadableFileIsNamedAndTheOthersAreStillFiltered() throws {
        let log = try makeFile("tor 185.220.101.1\ngoogle 8.8.8.8\n", named: "a.log")
        let run = try ipdata(["filter", "--where", "threat.is_tor", "/nonexistent/x.log", log.path] + base)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "tor 185.220.101.1\n")
        XCTAssertEqual(run.stderrLines, ["ipdata: cannot read /nonexistent/x.log"])
    }

    func testALineTooLongEndsItsInputButNotTheOthers() throws {
        let long = try makeFile(
            "tor 185.220.101.1\n" + String(repeating: "x", count: 1_100_000) + "\ntor 185.220.101.1 again\n",
            named: "long.log")
        let other = try makeFile("b 185.220.101.1\nc 8.8.8.8\n", named: "b.log")
        let run = try ipdata(["filter", "-q", "--where", "threat.is_tor", long.path, other.path] + base)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stdout.hasSuffix("b 185.220.101.1\n"), run.stdout)
        XCTAssertFalse(run.stdout.contains("again"))
        XCTAssertEqual(
            run.stderrLines, ["ipdata: line 2 of \(long.path) is longer than 1 MiB, the most filter reads"])
    }

    /// An API that cannot be reached: nothing is known, so nothing is printed, with or without
    /// -v, and one line counts the lines left out.
    func testLinesWhoseLookupFailedArePrintedByNeitherAndCounted() throws {
        let log = try makeFile("a 8.8.8.8\nb 1.1.1.1\nc 8.8.8.8\nno address\n", named: "a.log")
        for invert in [false, true] {
            let run = try ipdata(
                ["filter", "--where", "country_code == 'US'", "--retries", "0"] + (invert ? ["-v"] : []) + [
                    "--base-url", "https://127.0.0.1:9", log.path,
                ])
            XCTAssertEqual(run.status, 5, run.stderr)
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("ipdata: 3 lines were left out: the lookup of an address"), run.stderr)
        }
    }

    func testHelpDocumentsTheGrammarAndTheExitStatuses() throws {
        let run = try ipdata(["help", "filter"], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        for text in ["--where", "not in", "ip in 10.0.0.0/8", "Exit status: 0 a line was printed; 1 none was"] {
            XCTAssertTrue(run.stdout.contains(text), text)
        }
    }
}
#endif
