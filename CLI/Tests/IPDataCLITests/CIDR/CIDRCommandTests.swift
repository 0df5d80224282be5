// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// `ipdata cidr aggregate`, `range` and `match`, run as a user would, checked against Python's
/// `ipaddress` on random tables (`CIDRTables`) and on the edges users meet: CRLF, byte order
/// marks, comments, garbage lines, mapped addresses. They need no key and no server.
final class CIDRCommandTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    private func table(_ name: String, count: Int, seed: Int) throws -> URL {
        let folder = try makeTemporaryDirectory()
        try CIDRTables.write(name, count: count, seed: seed, into: folder)
        return folder
    }

    private func lines(_ folder: URL, _ name: String) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n").map(
            String.init)
    }

    // MARK: Against Python's ipaddress

    func testAggregateIsPythonsCollapseAddresses() throws {
        for seed in [1, 2] {
            let folder = try table("aggregate", count: 2_000, seed: seed)
            let run = try ipdata(["cidr", "aggregate", folder.appendingPathComponent("input.txt").path], key: .absent)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stderr, "")
            let expected = try lines(folder, "expected.txt")
            XCTAssertEqual(run.stdoutLines, expected, "seed \(seed)")
            XCTAssertLessThan(expected.count, 2_000, "the table merges some networks")
        }
    }

    func testRangeIsPythonsSummarizeAddressRangeAndANetworksEnds() throws {
        let folder = try table("range", count: 500, seed: 3)
        let input = try String(contentsOf: folder.appendingPathComponent("input.txt"), encoding: .utf8)
        let run = try ipdata(["cidr", "range"], key: .absent, stdin: input)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines, try lines(folder, "expected.txt"))
        // The same from the arguments.
        let some = Array(input.split(separator: "\n").map(String.init).prefix(40))
        let arguments = try ipdata(["cidr", "range"] + some, key: .absent)
        let fromStdin = try ipdata(["cidr", "range"], key: .absent, stdin: some.joined(separator: "\n"))
        XCTAssertEqual(arguments.stdout, fromStdin.stdout)
        XCTAssertEqual(arguments.status, 0, arguments.stderr)
    }

    func testMatchKeepsTheLinesPythonFindsInsideAndWithVTheOthers() throws {
        let folder = try table("match", count: 5_000, seed: 4)
        let networks = folder.appendingPathComponent("networks.txt").path
        let input = folder.appendingPathComponent("input.txt").path
        let expected = try Data(contentsOf: folder.appendingPathComponent("expected.txt"))
        let inverted = try Data(contentsOf: folder.appendingPathComponent("inverted.txt"))
        XCTAssertGreaterThan(expected.count, 1_000)
        XCTAssertGreaterThan(inverted.count, 1_000)
        let run = try ipdata(["cidr", "match", "--networks", networks, input], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutBytes, expected, "byte for byte, CR kept")
        let other = try ipdata(["cidr", "match", "-v", "--networks", networks, input], key: .absent)
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(other.stdoutBytes, inverted)
    }

    /// A list of networks as large as public blocklists, over a log: a scan of the list for each
    /// address would take minutes in a debug build, a binary search a moment.
    func testMatchStaysFastWithAHundredThousandNetworks() throws {
        let networks = (0..<100_000).map { "\(($0 >> 8) & 255).\($0 & 255).\($0 % 7).0/24" }
        let lines = (0..<20_000).map { "client \($0 % 251).\($0 % 241).\($0 % 9).\($0 % 256) GET /" }
        let list = try makeFile(networks.joined(separator: "\n"), named: "networks.txt")
        let log = try makeFile(lines.joined(separator: "\n"), named: "access.log")
        let start = Date()
        let run = try ipdata(["cidr", "match", "--networks", list.path, log.path], key: .absent)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertEqual(run.status, 0, run.stderr)
        // The /24s as their first three parts, and each line's address likewise.
        let prefixes = Set(networks.map { $0.dropLast(".0/24".count) })
        let kept = lines.filter {
            prefixes.contains($0.split(separator: " ")[1].split(separator: ".").dropLast().joined(separator: ".")[...])
        }
        XCTAssertEqual(run.stdoutLines, kept)
    }

    // MARK: Input as users have it

    func testCRLFByteOrderMarkCommentsAndBlankLinesAreRead() throws {
        let list = "\u{FEFF}# office\r\n10.0.0.0/25\r\n\r\n  10.0.0.128/25  # the other half\r\n\t::ffff:10.0.1.0\r\n"
        let run = try ipdata(["cidr", "aggregate"], key: .absent, stdin: list)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "10.0.0.0/24\n10.0.1.0/32\n")
        let ranges = try ipdata(["cidr", "range"], key: .absent, stdin: "\u{FEFF}10.0.0.0-10.0.0.2\r\n# x\r\n")
        XCTAssertEqual(ranges.stdout, "10.0.0.0/31\n10.0.0.2/32\n")
        XCTAssertEqual(ranges.status, 0, ranges.stderr)
    }

    func testGarbageLinesAreNamedAndTheRestIsAggregated() throws {
        let first = try makeFile("10.0.0.0/24\nnot an address\n10.0.1.0/24\n", named: "first.txt")
        let second = try makeFile("2001:db8::/33\n10.0.0.0/33\n2001:db8:8000::/33", named: "second.txt")
        let run = try ipdata(["cidr", "aggregate", first.path, second.path], key: .absent)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdoutLines, ["10.0.0.0/23", "2001:db8::/32"])
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: line 2 of \(first.path): `not an address` is no address or network",
                "ipdata: line 2 of \(second.path): `10.0.0.0/33` is no address or network",
            ])
    }

    func testAggregateEdges() throws {
        let cases: [(String, [String], UInt)] = [
            ("0.0.0.0/0\n10.0.0.0/8\n::/0\n::1", ["0.0.0.0/0", "::/0"], #line),
            ("10.0.0.1/8\n10.0.0.7", ["10.0.0.0/8"], #line),
            ("1.2.3.4\n1.2.3.4/32\n::ffff:1.2.3.4\n1.2.3.5", ["1.2.3.4/31"], #line),
            ("::1/128\n::/128\n::2/127", ["::/126"], #line),
            ("255.255.255.255\n0.0.0.0", ["0.0.0.0/32", "255.255.255.255/32"], #line),
            ("2001:db8::/48\n10.0.0.0/8", ["10.0.0.0/8", "2001:db8::/48"], #line),
            ("", [], #line),
        ]
        for (input, expected, line) in cases {
            let run = try ipdata(["cidr", "aggregate", "-"], key: .absent, stdin: input)
            XCTAssertEqual(run.status, 0, run.stderr, line: line)
            XCTAssertEqual(run.stdoutLines, expected, line: line)
        }
    }

    func testRangeErrorsAreNamedAndTheOthersPrinted() throws {
        let run = try ipdata(
            ["cidr", "range", "10.0.0.9-10.0.0.1", "10.0.0.1-10.0.0.2", "1.2.3.4-::1", "garbage", "10.1.0.0/16"],
            key: .absent)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdoutLines, ["10.0.0.1/32", "10.0.0.2/32", "10.1.0.0-10.1.255.255"])
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: `10.0.0.9-10.0.0.1` is no range: its first address is after its last",
                "ipdata: `1.2.3.4-::1` is no range: its ends are IPv4 and IPv6",
                "ipdata: `garbage` is neither a range (A-B) nor a network",
            ])
        let stdin = try ipdata(["cidr", "range"], key: .absent, stdin: "10.0.0.0/31\n10.0.0.5-10.0.0.4\r\n")
        XCTAssertEqual(stdin.status, 1)
        XCTAssertEqual(stdin.stdoutLines, ["10.0.0.0-10.0.0.1"])
        XCTAssertEqual(
            stdin.stderrLines,
            ["ipdata: line 2 of standard input: `10.0.0.5-10.0.0.4` is no range: its first address is after its last"])
    }

    func testMatchExitStatusesAndUsageErrors() throws {
        let log = "a 10.1.2.3 x\r\nb 192.0.2.1\nno address\nc [::ffff:10.9.9.9]:443 and 8.8.8.8\nd 2001:db8::5"
        let inside = try ipdata(
            ["cidr", "match", "-n", "10.0.0.0/8", "-n", "2001:db8::1/64"], key: .absent, stdin: log)
        XCTAssertEqual(inside.status, 0, inside.stderr)
        XCTAssertEqual(inside.stdout, "a 10.1.2.3 x\r\nc [::ffff:10.9.9.9]:443 and 8.8.8.8\nd 2001:db8::5\n")
        let outside = try ipdata(["cidr", "match", "-v", "-n", "10.0.0.0/8"], key: .absent, stdin: log)
        XCTAssertEqual(outside.stdout, "b 192.0.2.1\nd 2001:db8::5\n")
        let none = try ipdata(["cidr", "match", "-n", "203.0.113.0/24"], key: .absent, stdin: log)
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, "")
        let usages: [([String], String, UInt)] = [
            (["cidr", "match"], "give the networks to match", #line),
            (["cidr", "match", "-n", "10.0.0.0/33"], "-n `10.0.0.0/33` is no network or address", #line),
            (["cidr", "match", "-n", "1.2.3.4", "-", "-"], "standard input (-) can be read once", #line),
        ]
        for (arguments, message, line) in usages {
            let run = try ipdata(arguments, key: .absent, stdin: log)
            XCTAssertEqual(run.status, 2, line: line)
            XCTAssertEqual(run.stderrLines.count, 1, run.stderr, line: line)
            XCTAssertTrue(run.stderr.contains(message), run.stderr, line: line)
            XCTAssertTrue(run.stderr.contains("(see ipdata cidr match --help)"), run.stderr, line: line)
        }
        let list = try makeFile("10.0.0.0/8\nbogus\n", named: "networks.txt")
        let bad = try ipdata(["cidr", "match", "--networks", list.path], key: .absent, stdin: log)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stdout, "")
        XCTAssertTrue(bad.stderr.contains("line 2 of \(list.path): `bogus` is no network or address"), bad.stderr)
        let missing = try ipdata(["cidr", "match", "--networks", "/nonexistent/list"], key: .absent, stdin: log)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderrLines.count, 1, missing.stderr)
    }

    func testTheCommandsHaveHelpAndCidrAloneIsAUsageError() throws {
        for command in ["aggregate", "range", "match"] {
            let help = try ipdata(["cidr", command, "--help"], key: .absent)
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains("Exit status:"), command)
        }
        let help = try ipdata(["help", "cidr"], key: .absent)
        XCTAssertTrue(help.stdout.contains("aggregate"), help.stdout)
        let match = try ipdata(["help", "cidr", "match"], key: .absent)
        XCTAssertEqual(match.status, 0, match.stderr)
        XCTAssertEqual(match.stdout, try ipdata(["cidr", "match", "--help"], key: .absent).stdout)
        XCTAssertEqual(try ipdata(["help", "cidr", "bogus"], key: .absent).status, 2)
        let alone = try ipdata(["cidr"], key: .absent)
        XCTAssertEqual(alone.status, 2)
        XCTAssertEqual(
            alone.stderr,
            "ipdata: cidr takes a command: ipdata cidr aggregate | range | match (see ipdata cidr --help)\n")
    }
}
#endif
