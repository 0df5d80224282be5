// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

/// `ipdata summarize` of an analyst's list: each distinct public address sent once, private and
/// reserved ones answered locally, the dry run and the run agreeing with what the server saw;
/// and the tool's own output (bulk's CSV and JSON lines, enrich's CSV and JSON lines) read back.
final class SummarizeLookupsTests: CommandLineTestCase {
    private func summary(_ run: BuiltBinary.Run, file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any]
    {
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout, file: file,
            line: line)
    }

    func testEachDistinctAddressIsSentOnceAndTheDryRunSaysSo() throws {
        let lines = AnalystList.lines()
        let file = try makeFile(lines.joined(separator: "\n") + "\n", named: "ips.txt")
        let global = try python(AnalystList.classify, input: file).components(separatedBy: "--\n")[0]
            .split(separator: "\n").map(String.init)
        let dryRun = try ipdata(["summarize", "--dry-run", file.path] + base)
        XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
        XCTAssertEqual(
            dryRun.stdout,
            "dry run: 3000 addresses read, 360 distinct; of the 360 distinct addresses: 0 in the cache, "
                + "30 answered locally (private or reserved), 330 to send in 4 bulk requests; nothing was sent\n")

        let mark = backendLogMark()
        let table = try ipdata(["summarize", file.path] + base)
        XCTAssertEqual(table.status, 0, table.stderr)
        let sent = try sentAddresses(since: mark, requests: 4)
        XCTAssertEqual(sent.requests, 4, "as the dry run said")
        XCTAssertEqual(sent.addresses.count, 330, "each distinct public address once")
        XCTAssertEqual(Set(sent.addresses.compactMap { IPAddress($0)?.description }), Set(global))
        XCTAssertEqual(
            table.stdoutLines.prefix(2),
            [
                "addresses  3000 total, 360 unique, \(lines.filter { IPAddress($0)?.scope == .public }.count) public, "
                    + "\(lines.filter { IPAddress($0)?.scope != .public }.count) private, "
                    + "\(lines.filter { IPAddress($0)?.scope != .public }.count) without an answer",
                "lookups    of 360 distinct addresses: 0 in the cache, 30 answered locally (private or reserved), "
                    + "330 sent in 4 bulk requests",
            ])

        let json = try summary(try ipdata(["summarize", "--format", "json", file.path] + base))
        XCTAssertEqual(json["total"] as? Int, 3_000)
        XCTAssertEqual(json["unique"] as? Int, 360)
        let countries = try XCTUnwrap(json["countries"] as? [[String: Any]])
        XCTAssertEqual(
            countries.first?["count"] as? Int, lines.filter { IPAddress($0)?.scope == .public }.count,
            "every line of a repeated address counts with its first answer")
        let lookups = try XCTUnwrap(json["lookups"] as? [String: Int])
        XCTAssertEqual(
            lookups, ["distinct": 360, "cached": 0, "answered_locally": 30, "invalid": 0, "sent": 330, "requests": 4])
    }

    /// Bulk's JSON lines and CSV, and enrich's CSV (a quoted field over two lines, CRLF) and
    /// JSON lines, summarized without a request: the same totals, countries and networks as the
    /// addresses they came from.
    func testTheToolsOwnOutputIsReadBack() throws {
        let addresses = ["8.8.8.8", "1.1.1.1", "185.220.101.1", "10.0.0.1", "8.8.8.8", "2001:4860:4860::8844"]
        let list = try makeFile(addresses.joined(separator: "\n") + "\n", named: "ips.txt")
        let jsonl = try ipdata(["bulk", "-q", list.path] + base)
        let csv = try ipdata(["bulk", "-q", "--format", "csv", list.path] + base)
        var hosts = "ip,name\r\n"
        for (index, address) in addresses.enumerated() {
            hosts += index == 2 ? "\(address),\"two\r\nlines\"\r\n" : "\(address),host \(index)\r\n"
        }
        let hostsFile = try makeFile(hosts, named: "hosts.csv")
        let enrichedCSV = try ipdata(["enrich", "-q", hostsFile.path] + base)
        let events = try makeFile(
            addresses.map { #"{"ip":"\#($0)","n":1}"# }.joined(separator: "\n") + "\n", named: "e.jsonl")
        let enrichedJSONL = try ipdata(["enrich", "-q", events.path] + base)
        let looked = try summary(try ipdata(["summarize", "--format", "json", list.path] + base))
        let mark = accessLogMark()
        for (name, output) in [
            ("records.jsonl", jsonl), ("records.csv", csv), ("hosts-enriched.csv", enrichedCSV),
            ("events-enriched.jsonl", enrichedJSONL),
        ] {
            let file = try makeFile(output.stdout, named: name)
            let read = try summary(try ipdata(["summarize", "--format", "json", file.path], key: .absent))
            for key in ["total", "unique", "public", "private", "failed"] {
                XCTAssertEqual(read[key] as? Int, looked[key] as? Int, "\(name): \(key)")
            }
            let threats = try XCTUnwrap(read["threats"] as? [String: Int])
            XCTAssertEqual(threats["is_threat"], (looked["threats"] as? [String: Int])?["is_threat"], name)
            let countries = try XCTUnwrap(read["countries"] as? [[String: Any]])
            let networks = try XCTUnwrap(read["networks"] as? [[String: Any]])
            if name.hasPrefix("records") {
                XCTAssertEqual(
                    countries.map { $0["value"] as? String },
                    (looked["countries"] as? [[String: Any]])?.map {
                        $0["value"] as? String
                    }, name)
                XCTAssertEqual(networks.count, (looked["networks"] as? [[String: Any]])?.count, name)
            } else {
                // Enrich adds country_code and asn.name by default.
                XCTAssertEqual(countries.first?["value"] as? String, "US", name)
                XCTAssertEqual(countries.first?["count"] as? Int, 3, name)
                XCTAssertEqual(networks.first?["value"] as? String, "Google LLC", name)
            }
        }
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0, "records cost no request")
    }

    /// Lines that are neither addresses nor records (a log, enrich's lines output) are not
    /// summarized as so many failures: one line says what summarize reads, with a usage status.
    func testAnInputOfNeitherAddressesNorRecordsIsOneError() throws {
        let log = try makeFile(
            (1...50).map { "Dec  1 10:00:0\($0 % 10) host sshd[\($0)]: Accepted publickey for root" }
                .joined(separator: "\n") + "\n", named: "auth.log")
        let run = try ipdata(["summarize", log.path] + base)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: nothing in \(log.path) is an address or a record: summarize reads addresses one a line, the "
                    + "JSON lines of ipdata bulk or enrich, or CSV with an ip column (for the addresses in a log, "
                    + "ipdata grep -o FILE | ipdata summarize)"
            ])
    }

    /// A CSV with an ip column and no data columns is a list: its addresses are looked up.
    func testACSVWithAnIPColumnAndNoDataIsALookedUpList() throws {
        let hosts = try makeFile("host,ip\na,8.8.8.8\nb,1.1.1.1\nc,8.8.8.8\n", named: "hosts.csv")
        let mark = backendLogMark()
        let object = try summary(try ipdata(["summarize", "--format", "json", hosts.path] + base))
        XCTAssertEqual(object["total"] as? Int, 3)
        XCTAssertEqual(object["unique"] as? Int, 2)
        XCTAssertEqual(try sentAddresses(since: mark, requests: 1).addresses, ["8.8.8.8", "1.1.1.1"])
    }
}
#endif
