// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// `ipdata --field NAME` over a list: each distinct public address is sent once, in bulk
/// requests, and kept in the cache; the lines are those the single-field lookups print.
final class FieldListTests: CommandLineTestCase {
    /// The analyst's list of 3,000 lines and 360 distinct addresses: 4 bulk requests carrying the
    /// 330 distinct public addresses once each, none of the private or reserved ones; a line for
    /// every input line, in order; and a second run answered by the cache with no request.
    func testEachDistinctPublicAddressIsSentOnceAndTheCacheAnswersTheNextRun() throws {
        let lines = AnalystList.lines()
        let file = try makeFile(lines.joined(separator: "\n") + "\n", named: "ips.txt")
        let expected = try python(AnalystList.classify, input: file).components(separatedBy: "--\n")
        let global = expected[0].split(separator: "\n").map(String.init)
        let refused = expected[1].split(separator: "\n").map(String.init)
        XCTAssertEqual([global.count, refused.count], [330, 30])
        let cache = ["IPDATA_CACHE_DIR": home.appendingPathComponent("cache").path]
        let mark = backendLogMark()
        let stdin = try String(contentsOf: file, encoding: .utf8)
        let run = try ipdata(["--field", "country_code"] + base, stdin: stdin, extra: cache)
        XCTAssertEqual(run.status, 1, "the private addresses' lines carry the API's refusal: \(run.stderr)")
        XCTAssertEqual(run.stdoutLines.count, 3_000)
        for (line, address) in zip(run.stdoutLines, lines) {
            let parsed = IPAddress(address)
            if parsed?.scope == .public {
                XCTAssertEqual(line, "\(address)\tUS")
            } else {
                let kind = parsed?.scope == .private ? "private IP address" : "reserved IP address."
                XCTAssertEqual(line, "\(address)\t\tBad Request: \(address) is a \(kind)")
            }
        }
        let sent = try sentAddresses(since: mark, requests: 4)
        XCTAssertEqual(sent.requests, 4, "330 distinct public addresses in bulk requests of 100")
        XCTAssertEqual(sent.addresses.count, 330, "each distinct address once")
        XCTAssertEqual(Set(sent.addresses.compactMap { IPAddress($0)?.description }), Set(global))

        let again = backendLogMark()
        let second = try ipdata(["--field", "country_code"] + base, stdin: stdin, extra: cache)
        XCTAssertEqual(second.stdout, run.stdout)
        XCTAssertEqual(try sentAddresses(since: again, requests: 0).requests, 0, "the cache answers every address")
    }

    /// The list's lines hold exactly what `ipdata IP --field NAME` prints for each address (a
    /// string as plain text, an object as the API's JSON, a number or a boolean as its text, a
    /// field the address has no value for as null), on one line.
    func testTheValuesAreWhatTheSingleFieldLookupsPrint() throws {
        let addresses = ["8.8.8.8", "1.1.1.1", "185.220.101.1", "104.16.132.229", "2001:4860:4860::8844"]
        for field in ["country_name", "asn", "threat", "languages", "latitude", "is_eu", "carrier", "asn.name"] {
            let list = try ipdata(addresses + ["--field", field] + base)
            XCTAssertEqual(list.status, 0, list.stderr)
            var expected = ""
            for address in addresses {
                let single = try ipdata([address, "--field", field] + base)
                XCTAssertEqual(single.status, 0, single.stderr)
                // The value on one line: its line breaks and tabs as spaces.
                let value = single.stdout.trimmingCharacters(in: .newlines)
                expected += address + "\t" + String(value.map { $0.isNewline || $0 == "\t" ? " " : $0 }) + "\n"
            }
            XCTAssertEqual(list.stdout, expected, field)
        }
    }

    /// Its dry run counts what the run then sends, with each number's unit.
    func testTheDryRunCountsWhatTheRunSends() throws {
        let lines = AnalystList.lines()
        let stdin = lines.joined(separator: "\n") + "\n"
        let dryRun = try ipdata(["--field", "asn.name", "--dry-run"] + base, stdin: stdin)
        XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
        XCTAssertEqual(
            dryRun.stdout,
            "dry run: 3000 addresses read, 360 distinct; of the 360 distinct addresses: 0 in the cache, "
                + "30 answered locally (private or reserved), 330 to send in 4 bulk requests; nothing was sent\n")
        let mark = backendLogMark()
        _ = try ipdata(["--field", "asn.name"] + base, stdin: stdin)
        let sent = try sentAddresses(since: mark, requests: 4)
        XCTAssertEqual(sent.requests, 4)
        XCTAssertEqual(sent.addresses.count, 330)
    }

    /// A list given as arguments, with a repeat, a private address and a word: one bulk request
    /// for the two distinct public addresses.
    func testAddressesGivenAsArgumentsGoInOneBulkRequest() throws {
        let mark = backendLogMark()
        let run = try ipdata(["8.8.8.8", "10.0.0.1", "nope", "1.1.1.1", "8.8.8.8", "--field", "country_code"] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.stdout,
            """
            8.8.8.8\tUS
            10.0.0.1\t\tBad Request: 10.0.0.1 is a private IP address
            nope\t\tBad Request: nope does not appear to be an IPv4 or IPv6 address
            1.1.1.1\tAU
            8.8.8.8\tUS

            """)
        let sent = try sentAddresses(since: mark, requests: 1)
        XCTAssertEqual(sent.requests, 1)
        XCTAssertEqual(sent.addresses, ["8.8.8.8", "1.1.1.1"])
    }

    /// When the plan refuses bulk requests, the addresses go one by one: the refusal is asked
    /// once, and at most eight single lookups are in flight (the ninth waits for an answer).
    func testWithoutBulkRequestsSingleLookupsGoEightAtATime() throws {
        let freeKey = server["IPDATA_TEST_FREE_KEY"] ?? "free-key"
        let mark = accessLogMark()
        let addresses = (1...12).map { "9.9.9.\($0)" }
        let run = try ipdata(
            addresses + addresses + ["--field", "ip", "--base-url", url + "/delay/0.5"], key: .given(freeKey))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines, (addresses + addresses).map { "\($0)\t\($0)" })
        let entries = try accessEntries(since: mark, atLeast: 13)
        XCTAssertEqual(entries.filter { $0.method == "POST" }.count, 1, "the plan's refusal, once")
        let singles = entries.filter { $0.method == "GET" }
        guard singles.count == 12 else { return XCTFail("12 single lookups: \(entries.map(\.uri))") }
        let arrivals = singles.map(\.start).sorted()
        let firstEnd = try XCTUnwrap(singles.map(\.end).min())
        XCTAssertLessThan(arrivals[7], firstEnd, "eight requests in flight together")
        // nginx logs milliseconds: 50 ms of slack, ten times less than the delay.
        XCTAssertGreaterThan(arrivals[8], firstEnd - 0.05, "the ninth waited for an answer")
    }
}
#endif
