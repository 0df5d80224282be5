// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// Private, loopback and reserved addresses never leave the machine from bulk, enrich and
/// lookups of several addresses: each is answered locally with the record the API would give.
final class NonPublicAddressTests: CommandLineTestCase {
    /// The analyst's list through bulk: none of its 30 non-public addresses reaches the server,
    /// and each of their records is the one the API gives (asked of it by a single lookup).
    func testBulkAnswersThemLocallyWithTheAPIsRecord() throws {
        let lines = AnalystList.lines()
        let mark = backendLogMark()
        let run = try ipdata(["bulk", "-q", "-f", "ip,country_code"] + base, stdin: lines.joined(separator: "\n"))
        XCTAssertEqual(run.status, 1, run.stderr)
        let records = try objects(run)
        XCTAssertEqual(records.count, lines.count)
        let misplaced = zip(lines, records).filter { line, record in
            IPAddress(line)?.scope != .public && record["ip"] != .string(line)
        }
        XCTAssertTrue(misplaced.isEmpty, "each non-public address's record in its place: \(misplaced.prefix(3))")
        let sent = try sentAddresses(since: mark, requests: 4)
        XCTAssertEqual(sent.requests, 4)
        XCTAssertEqual(sent.addresses.count, 330)
        XCTAssertTrue(sent.addresses.allSatisfy { IPAddress($0)?.scope == .public }, "\(sent.addresses)")
        for address in AnalystList.nonPublic {
            // A single address still goes to the API: its answer is the reference.
            let api = try ipdata([address] + base)
            XCTAssertEqual(api.status, 1, api.stderr)
            let local = try XCTUnwrap(records.first { $0["ip"] == .string(address) }, address)
            XCTAssertEqual(
                local, ["ip": .string(address), "error": .string(String(api.stderr.dropFirst(8).dropLast()))])
        }
    }

    /// Bulk's summary counts them as failed, as the API would have them, and on a line of their
    /// own as answered locally.
    func testBulksSummaryCountsThemAsAnsweredLocally() throws {
        let lines = AnalystList.lines()
        let local = lines.filter(AnalystList.nonPublic.contains).count
        let run = try ipdata(["bulk", "--no-progress", "-f", "ip"] + base, stdin: lines.joined(separator: "\n"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertGreaterThan(local, 30, "the hot repeats include non-public addresses")
        let summary = run.stderrLines.suffix(2)
        XCTAssertEqual(summary.count, 2, run.stderr)
        XCTAssertTrue(
            summary.first?.hasPrefix("ipdata: \(lines.count) records, \(local) failed, 4 requests sent, ") == true,
            run.stderr)
        XCTAssertEqual(summary.last, "ipdata: \(local) private or reserved, answered locally")
    }

    func testEnrichAndLookupsOfSeveralAddressesSendNone() throws {
        let input = try makeFile(
            "ip,host\n10.0.0.1,a\n8.8.8.8,b\n224.0.0.1,c\n::1.2.3.4,d\n198.18.0.1,e\n", named: "hosts.csv")
        let mark = backendLogMark()
        let enrich = try ipdata(["enrich", "-q", "-f", "country_code", input.path] + base)
        XCTAssertEqual(
            enrich.stdout,
            """
            ip,host,country_code,ipdata_error
            10.0.0.1,a,,Bad Request: 10.0.0.1 is a private IP address
            8.8.8.8,b,US,
            224.0.0.1,c,,Bad Request: 224.0.0.1 is a reserved IP address.
            ::1.2.3.4,d,,Bad Request: ::1.2.3.4 is a reserved IP address.
            198.18.0.1,e,,Bad Request: 198.18.0.1 is a private IP address

            """)
        let lookup = try ipdata(["127.0.0.1", "2001::1", "1.1.1.1", "fe80::1"] + base)
        XCTAssertEqual(
            try objects(lookup).map { $0["error"] ?? $0["ip"] },
            [
                "Bad Request: 127.0.0.1 is a private IP address", "Bad Request: 2001::1 is a private IP address",
                "1.1.1.1", "Bad Request: fe80::1 is a private IP address",
            ].map(JSONValue.string))
        XCTAssertEqual(try sentAddresses(since: mark, requests: 2).addresses, ["8.8.8.8", "1.1.1.1"])
    }

    /// The dry runs count them apart, as not sent.
    func testTheDryRunsCountThemAsAnsweredLocally() throws {
        let input = "10.0.0.1\n8.8.8.8\n10.0.0.1\n224.0.0.1\nnope\n2001:DB8::1\n1.1.1.1\n"
        let expected =
            "dry run: 7 addresses read, 6 distinct; of the 6 distinct addresses: 0 in the cache, 3 answered locally "
            + "(private or reserved), 1 invalid, 2 to send in 1 bulk request; nothing was sent\n"
        for arguments in [["bulk"], ["summarize"], ["--field", "country_code"], []] {
            let run = try ipdata(arguments + ["--dry-run"] + base, stdin: input)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout, expected, "\(arguments)")
        }
        let csv = try makeFile("ip\n" + input, named: "list.csv")
        XCTAssertEqual(try ipdata(["enrich", "--dry-run", csv.path] + base).stdout, expected)
        // One address is one single lookup, sent as it is: the API answers it.
        XCTAssertEqual(
            try ipdata(["10.0.0.1", "--dry-run"] + base).stdout,
            "dry run: 1 address read, 1 distinct; of the 1 distinct address: 0 in the cache, "
                + "1 to send in 1 single lookup; nothing was sent\n")
    }

    /// `grep --public` keeps what the API looks up, by the same rule.
    func testGrepPublicKeepsOnlyWhatTheAPILooksUp() throws {
        let text = """
            a 198.18.0.1 b 8.8.8.8 c 198.19.255.255
            teredo 2001:0:4136:e378:8000:63bf:3fff:fdd2 and 2606:4700::1111
            compatible ::1.2.3.4 mapped ::ffff:8.8.4.4 outside 4000::1 doc 3fff::1 nat64 64:ff9b::808:808
            """
        let run = try ipdata(["grep", "-o", "--public"], stdin: text + "\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        // grep finds the IPv4 address inside an IPv4-mapped one.
        XCTAssertEqual(run.stdoutLines, ["8.8.8.8", "2606:4700::1111", "8.8.4.4", "64:ff9b::808:808"])
    }
}
#endif
