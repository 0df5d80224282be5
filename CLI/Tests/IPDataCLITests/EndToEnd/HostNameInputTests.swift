// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// Host names as input: resolved by the system resolver, each record naming its host, a name that
/// does not resolve an error record, and nothing sent for it.
///
/// Public answers need a name that resolves to the test server's fixture addresses without the
/// network: `ipdata` runs in a mount namespace (`unshare -m`, or `unshare -rm` as a user) with
/// a hosts file of its own bound over /etc/hosts. Linux only; skipped where neither works.
final class HostNameInputTests: CommandLineTestCase {
    static let name = "www.example.test"
    private static let hosts = """
        8.8.8.8 www.example.test
        1.1.1.1 www.example.test
        2001:4860:4860::8844 www.example.test
        127.0.0.1 localhost
        ::1 localhost

        """

    /// How to run a command with `hosts` as /etc/hosts: the `unshare` arguments that work here.
    func namespace() throws -> (unshare: [String], hosts: URL) {
        #if os(Linux)
        let hosts = try makeFile(Self.hosts, named: "hosts")
        for flags in [["-m"], ["-rm"]] {
            let run = try? BuiltBinary.run(
                flags + ["sh", "-c", "mount --bind \"$0\" /etc/hosts && getent ahosts \(Self.name)", hosts.path],
                executable: URL(fileURLWithPath: "/usr/bin/unshare"), environment: childEnvironment(key: nil))
            if run?.status == 0, run?.stdout.contains("2001:4860:4860::8844") == true { return (flags, hosts) }
        }
        throw XCTSkip("neither `unshare -m` nor `unshare -rm` can bind a hosts file over /etc/hosts here")
        #else
        throw XCTSkip("mount namespaces are Linux's: the hosts file cannot be replaced for one process")
        #endif
    }

    /// Runs `command arguments…` with the test's hosts file as /etc/hosts.
    func withHosts(
        _ command: String, _ arguments: [String], stdin: String? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> BuiltBinary.Run {
        let (flags, hosts) = try namespace()
        let script = "mount --bind \"$0\" /etc/hosts && exec \"$@\""
        return try BuiltBinary.run(
            flags + ["sh", "-c", script, hosts.path, command] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/unshare"), environment: childEnvironment(key: key),
            stdin: try stdin.map { try makeFile($0, named: "stdin") }, file: file, line: line)
    }

    /// The addresses of `name` as glibc's own tool lists them (a stream socket type, in the
    /// resolver's order), in the same hosts file: the reference for ipdata's order.
    func getent(_ name: String) throws -> [String] {
        let run = try withHosts("getent", ["ahosts", name])
        return run.stdoutLines.filter { $0.contains("STREAM") }.compactMap { $0.split(separator: " ").first }
            .map(String.init)
    }

    /// An analyst's list of thousands of lines (a BOM, CRLF, comments, blank lines, IPv6,
    /// garbage), with names among the addresses: one record an address of each name, in the
    /// resolver's order, naming the host as written; every other line as without names; each
    /// address sent once, and nothing for the name that does not resolve.
    func testBulkResolvesNamesAndSendsEachAddressOnce() throws {
        let addresses = try getent(Self.name)
        XCTAssertEqual(Set(addresses), ["8.8.8.8", "1.1.1.1", "2001:4860:4860::8844"])
        let loopback = try getent("localhost")
        var generator = SeededGenerator(seed: 26)
        let kinds = [
            Self.name, "WWW.Example.Test", "  www.example.test.\r", "8.8.8.8", "2001:4860:4860::8844",
            "nothing.example.invalid", "localhost", "hello world", "# a comment", "", "1.1.1.1\r",
        ]
        let lines = (0..<3_000).map { _ in kinds.randomElement(using: &generator)! }
        let mark = backendLogMark()
        let run = try withHosts(
            BuiltBinary.url.path, ["bulk", "--no-progress"] + base, stdin: "\u{FEFF}" + lines.joined(separator: "\n"))
        XCTAssertEqual(run.status, 1, run.stderr)
        // What each line should give, worked out here from the lines and getent's answers.
        var expected: [(ip: String, host: String?, error: String?)] = []
        for line in lines {
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty || text.hasPrefix("#") { continue }
            if text.lowercased().hasPrefix("www.example.test") {
                expected += addresses.map { ($0, text, nil) }
            } else if text == "localhost" {
                expected += loopback.map { ($0, text, "Bad Request: \($0) is a private IP address") }
            } else if text.hasSuffix(".invalid") {
                expected.append((text, text, "\(text): the name does not resolve ("))
            } else if IPAddress(text) == nil {
                expected.append((text, nil, "Bad Request: \(text) does not appear to be an IPv4 or IPv6 address"))
            } else {
                expected.append((text, nil, nil))
            }
        }
        let records = try objects(run)
        XCTAssertEqual(records.count, expected.count)
        for (record, want) in zip(records, expected) {
            XCTAssertEqual(record["ip"], .string(want.ip))
            XCTAssertEqual(record["host"], want.host.map(JSONValue.string), "\(record)")
            if let error = want.error {
                guard case .string(let message)? = record["error"] else { return XCTFail("\(record)") }
                XCTAssertTrue(message.hasPrefix(error), message)
            } else {
                XCTAssertNil(record["error"], "\(record)")
            }
        }
        let sent = try sentAddresses(since: mark, requests: 1)
        XCTAssertEqual(sent.addresses.sorted(), Set(addresses).sorted(), "each public address once, no name")
    }

    /// A record resolved from a name is the address's record, byte for byte, with `"host"` first.
    func testARecordOfANameIsTheAddressesRecordWithItsHostFirst() throws {
        let addresses = try getent(Self.name)
        let plain = try ipdata(["bulk", "--no-progress"] + base, stdin: addresses.joined(separator: "\n"))
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let named = try withHosts(BuiltBinary.url.path, ["bulk", "--no-progress"] + base, stdin: Self.name + "\n")
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(plain.stdoutLines.count, 3)
        XCTAssertEqual(
            named.stdoutLines, plain.stdoutLines.map { #"{"host":"www.example.test","# + $0.dropFirst() })
    }

    /// `ipdata NAME`: a name of several addresses is a list, in CSV with a `host` column after
    /// `ip` (read back with Python's csv module); `--fields host,…` asks for it by name.
    func testALookupOfANameNamesItsHostInEveryFormat() throws {
        let addresses = try getent(Self.name)
        let csv = try withHosts(BuiltBinary.url.path, [Self.name, "--format", "csv"] + base)
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let output = try makeFile(csv.stdout, named: "names.csv")
        let rows = try python(
            "import csv,sys\nfor r in csv.DictReader(open(sys.argv[1], newline='')): print(r['ip'], r['host'], r['country_code'])\n"
                + "print(csv.reader(open(sys.argv[1])).__next__()[:2])",
            input: output)
        XCTAssertEqual(
            rows,
            addresses.map { "\($0) \(Self.name) \($0 == "1.1.1.1" ? "AU" : "US")\n" }.joined() + "['ip', 'host']\n")
        let fields = try withHosts(
            BuiltBinary.url.path, ["bulk", "-f", "host,country_code", "--format", "csv", "--no-progress"] + base,
            stdin: "8.8.8.8\n\(Self.name)\n")
        XCTAssertEqual(
            fields.stdout,
            "ip,host,country_code,error\n8.8.8.8,,US,\n"
                + addresses.map { "\($0),\(Self.name),\($0 == "1.1.1.1" ? "AU" : "US"),\n" }.joined(),
            fields.stderr)
    }

    /// `--dry-run` resolves names (asking the resolver, not the API) and counts the addresses.
    func testADryRunCountsTheAddressesOfNames() throws {
        let mark = backendLogMark()
        let run = try withHosts(
            BuiltBinary.url.path, ["bulk", "--dry-run"] + base,
            stdin: Array(repeating: Self.name, count: 100).joined(separator: "\n") + "\nx.invalid\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("dry run: 301 addresses read, 4 distinct;"), run.stdout)
        XCTAssertTrue(run.stdout.contains("1 invalid, 3 to send in 1 bulk request"), run.stdout)
        XCTAssertEqual(try sentAddresses(since: mark, requests: 0).requests, 0)
    }

    /// A name that does not resolve, alone, is one line on standard error and exit status 1;
    /// in a list, an error record; either way nothing is sent. (No namespace needed.)
    func testANameThatDoesNotResolveSendsNothing() throws {
        let mark = backendLogMark()
        let one = try ipdata(["nowhere.example.invalid"] + base)
        XCTAssertEqual(one.status, 1)
        XCTAssertEqual(one.stdout, "")
        XCTAssertTrue(
            one.stderr.hasPrefix("ipdata: nowhere.example.invalid: the name does not resolve ("), one.stderr)
        XCTAssertEqual(one.stderrLines.count, 1, one.stderr)
        let field = try ipdata(["nowhere.example.invalid", "--field", "country_code"] + base)
        XCTAssertEqual(field.status, 1)
        XCTAssertEqual(field.stdout, "")
        XCTAssertEqual(field.stderr, one.stderr)
        let list = try ipdata(["nowhere.example.invalid", "localhost", "--format", "jsonl"] + base)
        XCTAssertEqual(list.status, 1, list.stderr)
        let records = try objects(list)
        XCTAssertEqual(records.first?["ip"], .string("nowhere.example.invalid"))
        XCTAssertEqual(records.first?["host"], .string("nowhere.example.invalid"))
        XCTAssertTrue(records.dropFirst().allSatisfy { $0["host"] == .string("localhost") }, "\(records)")
        XCTAssertTrue(
            records.dropFirst().allSatisfy { ["127.0.0.1", "::1"].map(JSONValue.string).contains($0["ip"]) },
            "\(records)")
        XCTAssertEqual(try sentAddresses(since: mark, requests: 0).requests, 0, "nothing sent: loopback is local")
    }

    /// `grep --names` finds names among thousands of log lines and prints each one's addresses
    /// where it is written, in the resolver's order; a mail address, a file name and a name that
    /// does not resolve give nothing; without `--names` no name is resolved.
    func testGrepFindsNamesOnlyWhenAsked() throws {
        let addresses = try getent(Self.name)
        let kinds = [
            ("GET https://www.example.test/a.txt from 8.8.4.4", addresses + ["8.8.4.4"]),
            ("mail bob@www.example.test and notes.txt", []),
            ("visit WWW.EXAMPLE.TEST. now\r", addresses),
            ("no.such.name.invalid 10.1.2.3", ["10.1.2.3"]),
            ("nothing here, café.example.test", []),
        ]
        var generator = SeededGenerator(seed: 7)
        let picked = (0..<2_000).map { _ in kinds.randomElement(using: &generator)! }
        let log = try makeFile(picked.map(\.0).joined(separator: "\n") + "\n", named: "access.log")
        let names = try withHosts(BuiltBinary.url.path, ["grep", "-o", "--names", log.path])
        XCTAssertEqual(names.status, 0, names.stderr)
        XCTAssertEqual(names.stdoutLines, picked.flatMap(\.1))
        let count = try withHosts(BuiltBinary.url.path, ["grep", "-c", "--names", log.path])
        XCTAssertEqual(count.stdout, "\(picked.filter { !$0.1.isEmpty }.count)\n")
        let plain = try withHosts(BuiltBinary.url.path, ["grep", "-o", log.path])
        XCTAssertEqual(plain.stdoutLines, picked.flatMap { $0.1.filter { !addresses.contains($0) } })
    }
}
#endif
