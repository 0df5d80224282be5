// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// `ipdata grep`, run as a user would: lines or addresses, filters, files and standard input. It
/// needs no key and no server.
final class GrepCommandTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    private let log = """
        Nov 30 10:00:01 sshd[1]: Accepted password for root from 203.0.113.9 port 22 ssh2
        Nov 30 10:00:02 app: version 1.2.3.4.5 built at 10:00:02
        10.0.0.1 - - [30/Nov/2026:10:00:03 +0000] "GET http://[2001:db8::1]:8080/ HTTP/1.1" 200 8.8.8.8
        Nov 30 10:00:04 kernel: fe80::1%eth0 link up, peer ::ffff:1.1.1.1
        8.8.8.8 again, and 010.1.1.1 (ambiguous)
        route 192.168.0.0/16 via 10.0.0.254
        """

    func testPrintsTheLinesThatHoldAnAddressAsTheyAre() throws {
        let run = try ipdata(["grep", makeFile(log).path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = log.split(separator: "\n").map(String.init)
        XCTAssertEqual(run.stdoutLines, [lines[0], lines[2], lines[3], lines[4], lines[5]])
        XCTAssertEqual(run.stderr, "")
    }

    func testOnlyMatchingUniqueFamiliesPublicAndNetworks() throws {
        let file = try makeFile(log).path
        let cases: [([String], [String], UInt)] = [
            (
                ["-o"],
                [
                    "203.0.113.9", "10.0.0.1", "2001:db8::1", "8.8.8.8", "fe80::1", "1.1.1.1", "8.8.8.8", "192.168.0.0",
                    "10.0.0.254",
                ], #line
            ),
            (
                ["--unique"],
                [
                    "203.0.113.9", "10.0.0.1", "2001:db8::1", "8.8.8.8", "fe80::1", "1.1.1.1", "192.168.0.0",
                    "10.0.0.254",
                ],
                #line
            ),
            (["-u", "-6"], ["2001:db8::1", "fe80::1"], #line),
            (["-u", "-4", "--public"], ["8.8.8.8", "1.1.1.1"], #line),
            (["-u", "--public"], ["8.8.8.8", "1.1.1.1"], #line),
            (
                ["-o", "--cidrs", "-4"],
                [
                    "203.0.113.9", "10.0.0.1", "8.8.8.8", "1.1.1.1", "8.8.8.8", "192.168.0.0/16",
                    "10.0.0.254",
                ], #line
            ),
        ]
        for (options, expected, line) in cases {
            let run = try ipdata(["grep"] + options + [file], key: .absent)
            XCTAssertEqual(run.status, 0, run.stderr, line: line)
            XCTAssertEqual(run.stdoutLines, expected, options.joined(separator: " "), line: line)
        }
    }

    func testNoAddressExitsOneAndPrintsNothing() throws {
        let run = try ipdata(["grep"], key: .absent, stdin: "no address here\nversion 1.2.3.4.5\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "")
    }

    func testReadsFilesInOrderAndStandardInput() throws {
        let first = try makeFile("a 1.1.1.1\n", named: "first.log").path
        let second = try makeFile("b 2.2.2.2", named: "second.log").path
        let run = try ipdata(["grep", "-o", first, "-", second], key: .absent, stdin: "c 3.3.3.3\n")
        // Several inputs: each address after its input's name, as GNU grep prints them.
        XCTAssertEqual(run.stdoutLines, ["\(first):1.1.1.1", "(standard input):3.3.3.3", "\(second):2.2.2.2"])
    }

    func testUsageErrors() throws {
        let both = try ipdata(["grep", "-4", "-6"], key: .absent, stdin: "")
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderrLines, ["ipdata: use -4 or -6, not both (see ipdata grep --help)"])
        let missing = try ipdata(["grep", "/nonexistent/file.log"], key: .absent)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderrLines.count, 1)
        XCTAssertTrue(missing.stderr.contains("cannot read /nonexistent/file.log"), missing.stderr)
    }

    /// Lines that cross the 1 MiB reads are found whole, once.
    func testALargeInputIsReadWhole() throws {
        var text = ""
        var expected: [String] = []
        for index in 0..<60_000 {
            // About 50 bytes a line: 3 MB, three reads and more.
            if index % 7 == 0 {
                let address = "10.\(index / 65_536).\(index / 256 % 256).\(index % 256)"
                text += "line \(index) from \(address) with some padding text\n"
                expected.append(address)
            } else {
                text += "line \(index) has no address but 12:34:56 and 1.2.3\n"
            }
        }
        let run = try ipdata(["grep", "-o", makeFile(text).path], key: .absent)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdoutLines, expected)
    }

    func testBytesThatAreNotUTF8AndControlCharactersPassThroughAPipeUnchanged() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("raw.log")
        let line = Data("\u{1b}[31mred\u{1b}[0m 1.2.3.4 ".utf8) + Data([0xFF, 0xFE]) + Data("\n".utf8)
        try line.write(to: url)
        let run = try ipdata(["grep", url.path], key: .absent)
        XCTAssertEqual(run.stdoutBytes, line)
    }
}

/// What `ipdata grep` prints is what `ipdata bulk` reads.
final class GrepIntoBulkTests: CommandLineTestCase {
    func testTheAddressesFoundAreLookedUpInOrder() throws {
        let log = "a 8.8.8.8:53 b\n[2001:4860::8888]:443 and 8.8.4.4.\nnone 1.2.3.4.5\n"
        let grep = try ipdata(["grep", "-o", "--public"], key: .absent, stdin: log)
        XCTAssertEqual(grep.stdoutLines, ["8.8.8.8", "2001:4860::8888", "8.8.4.4"])
        let bulk = try ipdata(
            ["bulk", "--format", "csv", "-f", "ip", "--no-progress", "-q"] + base, stdin: grep.stdout)
        XCTAssertEqual(bulk.status, 0, bulk.stderr)
        XCTAssertEqual(bulk.stdoutLines, ["ip,error", "8.8.8.8,", "2001:4860::8888,", "8.8.4.4,"])
    }
}
#endif
