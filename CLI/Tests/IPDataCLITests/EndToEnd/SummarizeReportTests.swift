// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// `ipdata summarize`'s top addresses, its HTML report, its partial summary after a quota stop,
/// and records without an answer looked up again, checked against Python reading the same files.
final class SummarizeReportTests: CommandLineTestCase {
    private func json(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text, file: file, line: line)
    }

    private func counts(_ list: Any?) -> [String: Int] {
        var result: [String: Int] = [:]
        for row in list as? [[String: Any]] ?? [] {
            if let value = row["value"] as? String, let count = row["count"] as? Int { result[value] = count }
        }
        return result
    }

    /// 4,000 records (BOM, CRLF, error records, garbage lines): the JSON summary, the top
    /// addresses and the HTML report all have the figures Python finds in the file.
    func testTheReportAndTheSummaryHaveTheFiguresOfTheRecords() throws {
        let records = try makeFile(AnalystRecords.text(), named: "records.jsonl")
        let expected = try json(try python(AnalystRecords.pythonFigures, input: records))
        let report = records.deletingLastPathComponent().appendingPathComponent("report.html")
        let mark = accessLogMark()
        let run = try ipdata(
            ["summarize", "--format", "json", "--top", "1000", "--html", report.path, records.path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderrLines, ["ipdata: wrote the HTML report to \(report.path)"])
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0, "records cost no request")
        let summary = try json(run.stdout)
        for key in ["total", "unique", "failed"] {
            XCTAssertEqual(summary[key] as? Int, expected[key] as? Int, key)
        }
        XCTAssertEqual(counts(summary["countries"]), expected["countries"] as? [String: Int])
        XCTAssertEqual(counts(summary["networks"]), expected["networks"] as? [String: Int])
        let threats = (summary["threats"] as? [String: Int] ?? [:]).filter { $0.value > 0 }
        XCTAssertEqual(threats, expected["threats"] as? [String: Int])
        let top = try XCTUnwrap(summary["top_addresses"] as? [[String: Any]])
        var topCounts: [String: Int] = [:]
        for row in top { topCounts[row["ip"] as? String ?? ""] = row["count"] as? Int }
        XCTAssertEqual(topCounts, expected["addresses"] as? [String: Int], "every address with its count")
        XCTAssertEqual(top.map { $0["count"] as? Int ?? 0 }, top.map { $0["count"] as? Int ?? 0 }.sorted(by: >))

        // The page, read by Python's HTML parser: the same figures.
        let page = try json(try python(AnalystRecords.pythonReport, input: report))
        let totals = try XCTUnwrap(page["totals"] as? [String: Int])
        for key in ["total", "unique", "public", "private", "failed"] {
            XCTAssertEqual(totals[key], summary[key] as? Int, "totals: \(key)")
        }
        let sections = try XCTUnwrap(page["sections"] as? [String: [String: Int]])
        XCTAssertEqual(sections["countries"], counts(summary["countries"]))
        XCTAssertEqual(sections["networks"], counts(summary["networks"]))
        XCTAssertEqual(sections["company-types"], counts(summary["company_types"]))
        XCTAssertEqual(sections["blocklists"], counts(summary["blocklists"]))
        XCTAssertEqual(sections["threats"], summary["threats"] as? [String: Int])
        let rows = try XCTUnwrap(page["top"] as? [[Any]])
        XCTAssertEqual(rows.map { $0[0] as? String }, top.map { $0["ip"] as? String })
        XCTAssertEqual(rows.map { $0[1] as? Int }, top.map { $0["count"] as? Int })
        XCTAssertEqual(
            rows.map { $0[2] as? String }, top.map { ($0["threats"] as? [String])?.joined(separator: ",") ?? "" })
        // The map: each country's records on its path; those too small for the map are listed.
        let codes = try XCTUnwrap(expected["codes"] as? [String: Int])
        let map = try XCTUnwrap(page["map"] as? [String: Int])
        XCTAssertGreaterThan(page["map_paths"] as? Int ?? 0, 170)
        for (code, count) in codes where !["SG", "HK", "MT"].contains(code) {
            XCTAssertEqual(map[code], count, "the path of \(code)")
        }
        XCTAssertEqual(
            map.values.reduce(0, +), codes.filter { !["SG", "HK", "MT"].contains($0.key) }.values.reduce(0, +))
        let html = try String(contentsOf: report, encoding: .utf8)
        XCTAssertTrue(html.contains("Too small for the map: "), "Singapore, Hong Kong, Malta")
        XCTAssertTrue(html.contains("Datacamp &lt;Ltd&gt; &amp; Co"))
    }

    /// The text summary's top addresses: the 10 most frequent, with the counts Python finds.
    func testTheTableListsTheTopAddresses() throws {
        let records = try makeFile(AnalystRecords.text(), named: "records.jsonl")
        let expected = try XCTUnwrap(
            try json(try python(AnalystRecords.pythonFigures, input: records))["addresses"] as? [String: Int])
        let run = try ipdata(["summarize", records.path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdoutLines.drop { $0 != "top addresses" }.dropFirst()
        XCTAssertEqual(lines.count, 10, run.stdout)
        let shown = lines.map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(shown.map { Int($0[0]) }, expected.values.sorted(by: >).prefix(10).map { $0 })
        for row in shown { XCTAssertEqual(expected[row[1]], Int(row[0]), row.joined(separator: " ")) }
    }

    /// A quota that runs out after one bulk request: the summary is still written, its first
    /// line says it is partial, every line of the input is counted, the exit status is 4.
    func testAQuotaStopLeavesAPartialSummary() throws {
        let addresses = (0..<450).map { "9.\($0 / 200 + 1).\($0 % 200 / 10).\($0 % 10 + 1)" }
        // After the addresses, records: read with their answers although lookups have stopped;
        // and a private address, answered locally as ever.
        let record = #"{"ip":"1.1.1.1","country_code":"AU","country_name":"Australia"}"#
        let input = try makeFile(
            (addresses + addresses.prefix(50) + ["10.0.0.1", record, record]).joined(separator: "\n") + "\n",
            named: "ips.txt")
        let quota = url + "/quota-after/1/\(UUID().uuidString)"
        let text = try ipdata(["summarize", input.path, "--base-url", quota])
        XCTAssertEqual(text.status, 4, text.stderr)
        let first = try XCTUnwrap(text.stdoutLines.first)
        XCTAssertTrue(first.hasPrefix("partial summary: the API refused further lookups (Forbidden: "), first)
        XCTAssertTrue(
            text.stdoutLines.dropFirst().first?.hasPrefix("addresses  503 total, 452 unique") == true, text.stdout)
        XCTAssertEqual(text.stderrLines.filter { $0.hasPrefix("ipdata: Forbidden: ") }.count, 1, text.stderr)

        let again = try ipdata(
            ["summarize", "--format", "json", input.path, "--base-url", url + "/quota-after/1/\(UUID().uuidString)"])
        XCTAssertEqual(again.status, 4, again.stderr)
        let summary = try json(again.stdout)
        XCTAssertTrue((summary["partial"] as? String)?.hasPrefix("the API refused further lookups") == true)
        let notLookedUp = try XCTUnwrap(summary["not_looked_up"] as? Int)
        XCTAssertEqual(summary["total"] as? Int, 503, "every line read, after the stop too")
        let answered = counts(summary["countries"]).values.reduce(0, +)
        XCTAssertEqual(answered + notLookedUp + 1, 503, "each line answered, not looked up, or private")
        XCTAssertEqual(summary["failed"] as? Int, notLookedUp + 1)
        XCTAssertEqual((summary["lookups"] as? [String: Int])?["answered_locally"], 1)
        XCTAssertEqual(counts(summary["countries"])["Australia (AU)"], 2, "records after the stop")
        XCTAssertGreaterThanOrEqual(answered, 100 + 2, "the first request's answers (and repeats), and the records")
    }

    /// Records without an answer (a failed run's error records) are looked up again when their
    /// address is public; private ones are not; without a key, none is, and a note says so.
    func testRecordsWithoutAnAnswerAreLookedUpAgain() throws {
        let bulk = try ipdata(["bulk", "-q"] + base, stdin: "8.8.8.8\n1.1.1.1\n")
        let lines =
            bulk.stdoutLines + [
                #"{"ip":"9.9.9.9","error":"Network error: timed out (URLError -1001)"}"#,
                #"{"ip":"9.9.9.9","error":"Network error: timed out (URLError -1001)"}"#,
                #"{"ip":"10.0.0.1","error":"10.0.0.1 is a private IP address"}"#,
            ]
        let records = try makeFile(lines.joined(separator: "\n") + "\n", named: "records.jsonl")
        let mark = backendLogMark()
        let run = try ipdata(["summarize", "--format", "json", records.path] + base)
        let summary = try json(run.stdout)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try sentAddresses(since: mark, requests: 1).addresses, ["9.9.9.9"], "once, public only")
        XCTAssertEqual(summary["total"] as? Int, 5)
        XCTAssertEqual(summary["failed"] as? Int, 1, "the private address only")

        // Enrich's CSV with its columns added, a row whose lookup failed (ipdata_error set).
        let csv = try makeFile(
            "ip,name,country_code,asn.name,ipdata_error\r\n8.8.8.8,a,US,Google LLC,\r\n9.9.9.9,b,,,"
                + "Network error: timed out\r\n10.0.0.2,c,,,private\r\n", named: "hosts-enriched.csv")
        let csvMark = backendLogMark()
        let csvRun = try ipdata(["summarize", "--format", "json", csv.path] + base)
        XCTAssertEqual(csvRun.status, 0, csvRun.stderr)
        XCTAssertEqual(try sentAddresses(since: csvMark, requests: 1).addresses, ["9.9.9.9"])
        XCTAssertEqual(try json(csvRun.stdout)["failed"] as? Int, 1, "the private address only")

        let accessMark = accessLogMark()
        let keyless = try ipdata(["summarize", "--format", "json", records.path], key: .absent)
        XCTAssertEqual(keyless.status, 0, keyless.stderr)
        XCTAssertEqual(try accessEntries(since: accessMark, atLeast: 0).count, 0)
        XCTAssertEqual(try json(keyless.stdout)["failed"] as? Int, 3)
        XCTAssertEqual(
            keyless.stderrLines,
            [
                "ipdata: 2 records without an answer were not looked up again: no API key (ipdata init, "
                    + "IPDATA_API_KEY or --api-key)"
            ])
    }

    /// A report that cannot be written fails before any lookup, with one line.
    func testAnUnwritableReportFailsBeforeAnyLookup() throws {
        let mark = accessLogMark()
        let run = try ipdata(["summarize", "--html", "/nonexistent-folder/report.html"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: cannot write /nonexistent-folder/report.html: "), run.stderr)
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0)
    }
}
#endif
