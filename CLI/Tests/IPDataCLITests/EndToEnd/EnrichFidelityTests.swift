// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata enrich` on an analyst's material, tens of thousands of rows with hot repeated
/// addresses, a byte order mark, CRLF line ends, quoted fields of many lines and bytes that are
/// not UTF-8: every record goes out byte for byte with only the added columns, key or lines, every
/// row whose address was looked up gets that address's data, and each distinct address is sent
/// once. Outputs are checked byte for byte against what the test expects, and read back with
/// Python's `csv` and `json` modules.
final class EnrichFidelityTests: CommandLineTestCase {
    // MARK: Item 1: repeats

    func testEveryRowOfHotRepeatedAddressesGetsItsDataAndEachDistinctAddressIsSentOnce() throws {
        // 2,098 distinct addresses alternating with two hot ones, ten times over: 41,960 rows, in
        // which each distinct address comes back 4,196 rows after it was last seen.
        let distinct = (0..<2_098).map { "23.\($0 / 250).\($0 % 250).7" }
        var rows = ["ip,n"]
        var addresses: [String] = []
        for round in 0..<10 {
            for (index, address) in distinct.enumerated() {
                let hot = index % 2 == 0 ? "12.0.0.1" : "12.0.0.2"
                addresses += [address, hot]
                rows += ["\(address),\(round)", "\(hot),\(round)"]
            }
        }
        let input = try makeFile(rows.joined(separator: "\n") + "\n", named: "hot.csv")
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip,country_code", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let expected =
            "ip,n,ip,country_code,ipdata_error\n"
            + rows.dropFirst().map { row in "\(row),\(row.prefix { $0 != "," }),US,\n" }.joined()
        assertSameLines(run.stdout, expected)
        let check = try python(Self.csvCheck, input, run.stdoutBytes, ["0"])
        XCTAssertEqual(check, ["rows": 41_961, "changed": 0, "wrong": 0], "\(check)")
        // 2,100 distinct addresses: 21 full bulk requests, each address in one of them.
        let sent = try bulkRequests(since: mark, atLeast: 21)
        XCTAssertEqual(sent.count, 21, "\(sent)")
        XCTAssertEqual(sent.reduce(0, +), Self.bodyLength(of: distinct + ["12.0.0.1", "12.0.0.2"], requests: 21))
    }

    func testANginxLogWithZipfDistributedClientsGetsEveryLineItsAddress() throws {
        // 24,000 lines from 3,000 clients whose frequencies follow Zipf's law (the first one is
        // on about 12% of the lines).
        var generator = Generator(weights: (0..<3_000).map { 1 / Double($0 + 1) })
        let clients = (0..<3_000).map { "45.\($0 / 250).\($0 % 250).9" }
        var lines: [String] = []
        var used: Set<String> = []
        for index in 0..<24_000 {
            let client = clients[generator.next()]
            used.insert(client)
            let path = ["/", "/login", "/api/v1/items?page=\(index % 40)", "/static/app.js"][index % 4]
            lines.append(
                "\(client) - - [30/Nov/2026:18:\(index / 60 % 60):\(index % 60) +0000] \"GET \(path) HTTP/1.1\" "
                    + "200 \(512 + index % 900) \"-\" \"Mozilla/5.0 (X11; Linux x86_64) Chrome/119.0.0.0 Safari/537.36\""
            )
        }
        let input = try makeFile(lines.joined(separator: "\n") + "\n", named: "access.log")
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let expected = lines.map { line -> String in
            let client = line.prefix { $0 != " " }
            return "\(line)\n  ipdata \(client): ip=\(client)\n"
        }
        assertSameLines(run.stdout, expected.joined())
        XCTAssertGreaterThan(used.count, 1_500, "a log with a long tail")
        let requests = (used.count + 99) / 100
        let sent = try bulkRequests(since: mark, atLeast: requests)
        XCTAssertEqual(sent.count, requests)
        XCTAssertEqual(sent.reduce(0, +), Self.bodyLength(of: Array(used), requests: requests), "each client sent once")
    }

    // MARK: Items 2 and 3: bytes, and quoted fields of many lines

    /// A CSV export as Excel writes it: a byte order mark, CRLF, quoted fields of 12 lines with
    /// CRLF inside (one holding an address on a line of its own), names in Latin-1, the last
    /// record without a line end.
    func testACSVExportGoesOutByteForByteWithOnlyTheColumnsAdded() throws {
        let export = Self.export(rows: 20_000, separator: ",")
        let input = try makeTemporaryDirectory().appendingPathComponent("export.csv")
        try export.bytes.write(to: input)
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip,country_code", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdoutBytes.count, export.expected.count)
        XCTAssertTrue(
            run.stdoutBytes == export.expected,
            "first difference at byte \(Self.firstDifference(run.stdoutBytes, export.expected))")
        let check = try python(Self.csvCheck, input, run.stdoutBytes, ["1"])
        XCTAssertEqual(check, ["rows": 20_001, "changed": 0, "wrong": 0], "\(check)")
        // The address inside the quoted fields is never looked up: the requests carry the
        // column's addresses, each once.
        let requests = (export.distinct.count + 99) / 100
        let sent = try bulkRequests(since: mark, atLeast: requests)
        XCTAssertEqual(sent.count, requests)
        XCTAssertEqual(sent.reduce(0, +), Self.bodyLength(of: export.distinct, requests: requests))
    }

    func testATSVExportGoesOutByteForByteWithOnlyTheColumnsAdded() throws {
        let export = Self.export(rows: 20_000, separator: "\t")
        let input = try makeTemporaryDirectory().appendingPathComponent("export.tsv")
        try export.bytes.write(to: input)
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip,country_code", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(
            run.stdoutBytes == export.expected,
            "first difference at byte \(Self.firstDifference(run.stdoutBytes, export.expected))")
        let check = try python(Self.csvCheck, input, run.stdoutBytes, ["1", "\t"])
        XCTAssertEqual(check, ["rows": 20_001, "changed": 0, "wrong": 0], "\(check)")
    }

    func testJSONLinesKeepTheirBytesAndGainTheKeyBeforeTheClosingBrace() throws {
        // 20,000 events: a byte order mark, CRLF, spaces where JSON allows them, text in UTF-8
        // and as escapes, hot repeated addresses, a last line without a line end.
        var input: [UInt8] = Array("\u{FEFF}".utf8)
        var expected: [UInt8] = input
        var distinct: Set<String> = []
        for index in 0..<20_000 {
            let address = index % 3 == 0 ? "12.0.0.\(1 + index % 2)" : "31.\(index / 250 % 250).\(index % 250).4"
            distinct.insert(address)
            let object =
                index % 5 == 0
                ? "{ \"ip\" : \"\(address)\", \"user\": \"Zoë \\u00fc\", \"n\": \(index) }  "
                : "{\"n\":\(index),\"ip\":\"\(address)\",\"path\":\"/a?b=c&d=\\\"e\\\"\"}"
            let end = index == 19_999 ? "" : "\r\n"
            let bytes = Array(object.utf8)
            let brace = bytes.lastIndex(of: UInt8(ascii: "}")) ?? bytes.count
            let added = ",\"ipdata\":{\"country_code\":\"US\",\"ip\":\"\(address)\"}"
            input += bytes + Array(end.utf8)
            expected += bytes[..<brace] + Array(added.utf8) + bytes[brace...] + Array(end.utf8)
        }
        let file = try makeTemporaryDirectory().appendingPathComponent("events.jsonl")
        try Data(input).write(to: file)
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip,country_code", file.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(
            run.stdoutBytes == Data(expected),
            "first difference at byte \(Self.firstDifference(run.stdoutBytes, Data(expected)))")
        let check = try python(Self.jsonCheck, file, run.stdoutBytes, [])
        XCTAssertEqual(check, ["lines": 20_000, "changed": 0, "wrong": 0], "\(check)")
        let requests = (distinct.count + 99) / 100
        XCTAssertEqual(try bulkRequests(since: mark, atLeast: requests).count, requests)
    }

    func testLogLinesKeepTheirBytesAndTheirAnnotationsTheirLineEnds() throws {
        // CRLF lines, bytes that are not UTF-8, lines without an address, the last line without a
        // line end: each annotation line ends as its line does.
        var input: [UInt8] = Array("\u{FEFF}".utf8)
        var expected: [UInt8] = input
        for index in 0..<20_000 {
            let address = index % 4 == 0 ? "12.0.0.1" : "37.\(index / 250 % 250).\(index % 250).1"
            let text: [UInt8] =
                index % 7 == 0
                ? Array("-- rotated at 18:55:55, version 1.2.3.4.5 --".utf8)
                : Array("Nov 30 sshd[\(index)]: Failed password for ".utf8) + [0x6A, 0xF6, 0x72, 0x67]
                    + Array(" from \(address) port 22 ssh2".utf8)
            let end: [UInt8] = index == 19_999 ? [] : [0x0D, 0x0A]
            input += text + end
            expected += text
            if index % 7 != 0 { expected += [0x0D, 0x0A] + Array("  ipdata \(address): ip=\(address)".utf8) }
            expected += end
        }
        let file = try makeTemporaryDirectory().appendingPathComponent("auth.log")
        try Data(input).write(to: file)
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip", file.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutBytes.count, expected.count)
        XCTAssertTrue(
            run.stdoutBytes == Data(expected),
            "first difference at byte \(Self.firstDifference(run.stdoutBytes, Data(expected)))")
    }

    func testAQuotedFieldOfManyLinesIsOneRecordAndTheNextRecordIsLookedUp() throws {
        // A note of 15 lines, one of them an address, then a record: the note stays in its
        // field, the address in it is not looked up, and the record after it is.
        let note = (1...15).map { $0 == 8 ? "8.8.4.4" : "line \($0), with \"\"quotes\"\"" }.joined(separator: "\r\n")
        let csv = "ip,note\r\n9.9.9.9,\"\(note)\"\r\n1.0.0.1,after\r\n"
        let input = try makeFile(csv, named: "notes.csv")
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout, "ip,note,ip,ipdata_error\r\n9.9.9.9,\"\(note)\",9.9.9.9,\r\n1.0.0.1,after,1.0.0.1,\r\n")
        let sent = try bulkRequests(since: mark, atLeast: 1)
        XCTAssertEqual(sent, [Self.bodyLength(of: ["9.9.9.9", "1.0.0.1"], requests: 1)])
    }

    func testARecordLongerThanTheLimitIsRefusedWithItsLineAndTheOutputIsKept() throws {
        let folder = try makeTemporaryDirectory()
        let input = folder.appendingPathComponent("big.csv")
        let long = String(repeating: "x", count: 1_000) + "\r\n"
        let csv =
            "ip,note\r\n8.8.8.8,short\r\n8.8.4.4,\"" + String(repeating: long, count: 1_100) + "\"\r\n1.1.1.1,x\r\n"
        try Data(csv.utf8).write(to: input)
        let output = folder.appendingPathComponent("enriched.csv")
        try Data("yesterday's results\n".utf8).write(to: output)
        let run = try ipdata(["enrich", "-f", "country_code", "--output", output.path, input.path] + base)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(
            run.stderrLines.first,
            "ipdata: line 3 of \(input.path) starts a record longer than 1 MiB, the most enrich reads; "
                + "the quoted field that opens on line 3 may lack its closing quote")
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "yesterday's results\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["big.csv", "enriched.csv"])
        // A line of a log, likewise.
        let log = folder.appendingPathComponent("app.log")
        try Data(("8.8.8.8 ok\n" + String(repeating: "y", count: 1_048_577) + "\n").utf8).write(to: log)
        let line = try ipdata(["enrich", "-f", "country_code", log.path] + base)
        XCTAssertEqual(line.status, 2, line.stderr)
        XCTAssertEqual(line.stderrLines, ["ipdata: line 2 of \(log.path) is longer than 1 MiB, the most enrich reads"])
    }

    func testAnUnbalancedQuoteIsRefusedWithItsLineAndTheOutputIsKept() throws {
        let folder = try makeTemporaryDirectory()
        let input = folder.appendingPathComponent("broken.csv")
        let rows = ["ip,note", "8.8.8.8,fine", "1.1.1.1,\"never closed"] + (0..<100).map { "9.9.\($0).1,row \($0)" }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: input)
        let output = folder.appendingPathComponent("enriched.csv")
        try Data("yesterday's results\n".utf8).write(to: output)
        let run = try ipdata(["enrich", "-f", "country_code", "--output", output.path, input.path] + base)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(
            run.stderrLines.first,
            "ipdata: line 3 of \(input.path) has an unbalanced quote: its quoted field runs to the end of the input")
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "yesterday's results\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["broken.csv", "enriched.csv"])
    }

    // MARK: Item 4: a run in which rows got no data says so

    func testJSONLinesWithoutTheKeyExitOneAndSayHowManyRowsGotNoData() throws {
        let lines = (0..<3_000).map { index in
            index == 10 || index == 2_000
                ? "{\"ip\":\"8.8.8.8\",\"n\":\(index)}"
                : "{\"client_ip\":\"8.8.\(index / 250).\(index % 250)\",\"n\":\(index)}"
        }
        let folder = try makeTemporaryDirectory()
        let input = folder.appendingPathComponent("events.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let run = try ipdata(["enrich", "-f", "country_code", input.path] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines, ["ipdata: 2,998 of 3,000 rows got no data: no address under the key \"ip\""])
        XCTAssertEqual(run.stdoutLines.count, 3_000)
        XCTAssertEqual(run.stdoutLines[10], "{\"ip\":\"8.8.8.8\",\"n\":10,\"ipdata\":{\"country_code\":\"US\"}}")
        XCTAssertEqual(
            run.stdoutLines[11],
            "{\"client_ip\":\"8.8.0.11\",\"n\":11,\"ipdata\":{\"error\":\"no address under the key ip\"}}")
        // No row at all: the same, with a hint, and an `--output` file is left as it was.
        let none = folder.appendingPathComponent("none.jsonl")
        try Data(lines.filter { !$0.contains("\"ip\"") }.joined(separator: "\n").utf8).write(to: none)
        let output = folder.appendingPathComponent("enriched.jsonl")
        try Data("yesterday's results\n".utf8).write(to: output)
        let wrong = try ipdata(["enrich", "-f", "country_code", "--output", output.path, none.path] + base)
        XCTAssertEqual(wrong.status, 1, wrong.stderr)
        XCTAssertEqual(
            wrong.stderrLines.first,
            "ipdata: 2,998 of 2,998 rows got no data: no address under the key \"ip\" (name the key with --key)")
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "yesterday's results\n")
        // With the right key, every row gets its data.
        let right = try ipdata(["enrich", "-f", "country_code", "--key", "client_ip", none.path] + base)
        XCTAssertEqual(right.status, 0, right.stderr)
        XCTAssertEqual(right.stderr, "")
    }

    func testCSVRowsWithoutAnAddressOrWithAFailedLookupExitOneInOneLine() throws {
        let rows = [
            "name,ip", "a,8.8.8.8", "b,", "c", "d,not-an-ip", "e,10.0.0.1", "f,224.0.0.1", "", "g,1.1.1.1",
        ]
        let input = try makeFile(rows.joined(separator: "\r\n") + "\r\n", named: "hosts.csv")
        let run = try ipdata(["enrich", "-f", "country_code", input.path] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: 3 of 7 rows got no data: no address in the column \"ip\" (2); no IP address in the column \"ip\" (1)"
            ])
        XCTAssertEqual(
            run.stdout.components(separatedBy: "\r\n"),
            [
                "name,ip,country_code,ipdata_error", "a,8.8.8.8,US,", "b,,,no address in the column ip",
                "c,,no address in the column ip",
                "d,not-an-ip,,Bad Request: not-an-ip does not appear to be an IPv4 or IPv6 address",
                "e,10.0.0.1,,Bad Request: 10.0.0.1 is a private IP address",
                "f,224.0.0.1,,Bad Request: 224.0.0.1 is a reserved IP address.", "", "g,1.1.1.1,AU,", "",
            ])
        // Private and reserved addresses are answered: no failure.
        let answered = try makeFile("ip\n10.0.0.1\n224.0.0.1\n8.8.8.8\n", named: "internal.csv")
        let ok = try ipdata(["enrich", "-f", "country_code", answered.path] + base)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stderr, "")
        // A log whose lines hold no address has no row to enrich.
        let quiet = try ipdata(["enrich", "-f", "country_code", "-"] + base, stdin: "started\n\nstopped\n")
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout, "started\n\nstopped\n")
    }

    func testAFailedLookupIsNamedInTheLine() throws {
        let input = try makeFile("ip\n8.8.8.8\n1.1.1.1\n", named: "two.csv")
        let run = try ipdata(["enrich", "-f", "country_code", "--base-url", "https://127.0.0.1:9", input.path])
        XCTAssertEqual(run.status, 5, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.hasPrefix("ipdata: 2 of 2 rows got no data: lookups failed, the first: Network error: "),
            run.stderr)
    }

    // MARK: Bounded memory

    func testAFewAddressesOverManyMoreLinesThanTheQueueHoldsAreAllAnswered() throws {
        // 30 distinct addresses, then 80,000 rows of them: more lines than the queue holds while
        // a request is being filled, so the run sends what it has and goes on.
        let addresses = (0..<30).map { "52.\($0).0.1" }
        let rows = ["ip"] + (0..<80_030).map { addresses[$0 % 30] }
        let input = try makeFile(rows.joined(separator: "\n") + "\n", named: "few.csv")
        let mark = accessLogMark()
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "ip", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "ip,ip,ipdata_error\n" + rows.dropFirst().map { "\($0),\($0),\n" }.joined())
        let sent = try bulkRequests(since: mark, atLeast: 1)
        XCTAssertEqual(sent, [Self.bodyLength(of: addresses, requests: 1)], "each address once")
    }

    // MARK: Helpers

    /// A CSV (or TSV) export of `rows` rows after its header, and what enrich with `-f
    /// ip,country_code` must write for it.
    private static func export(rows: Int, separator: String) -> (bytes: Data, expected: Data, distinct: [String]) {
        let crlf: [UInt8] = [0x0D, 0x0A]
        let sep = Array(separator.utf8)
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("user\(separator)ip\(separator)note".utf8) + crlf
        var expected =
            Array(bytes.dropLast(2)) + sep + Array("ip\(separator)country_code\(separator)ipdata_error".utf8) + crlf
        var distinct: Set<String> = []
        for index in 0..<rows {
            let address = index % 2 == 1 ? "12.0.0.\(1 + index / 2 % 2)" : "34.\(index / 250 % 250).\(index % 250).2"
            distinct.insert(address)
            // Names in Latin-1 (not UTF-8), and some in UTF-8.
            let user: [UInt8] =
                index % 3 == 0
                ? Array("M".utf8) + [0xFC] + Array("ller".utf8)
                : index % 3 == 1 ? Array("Zoë".utf8) : [0x4A, 0x6F, 0x73, 0xE9]
            let note: [UInt8]
            if index % 97 == 0 {
                let lines = (1...12).map { $0 == 6 ? "8.8.4.4" : "line \($0)\(separator) \"\"quoted\"\"" }
                note = Array(("\"" + lines.joined(separator: "\r\n") + "\"").utf8)
            } else {
                note = Array("plain \(index)".utf8)
            }
            let record = user + sep + Array(address.utf8) + sep + note
            let end = index == rows - 1 ? [] : crlf
            bytes += record + end
            expected += record + Array("\(separator)\(address)\(separator)US\(separator)".utf8) + end
        }
        return (Data(bytes), Data(expected), Array(distinct))
    }

    /// Reads an input and its output as CSV (`argv[3]`: the address column; `argv[4]`: the
    /// separator), bytes as Latin-1 so that every byte stands for itself: the number of rows, the
    /// rows whose own fields changed (or that are missing), and those whose added `ip`,
    /// `country_code` and `ipdata_error` are not the answer of their own address.
    private static let csvCheck = """
        import csv, io, json, sys
        separator = sys.argv[4] if len(sys.argv) > 4 else ","
        def rows(path):
            with open(path, encoding="latin-1", newline="") as f:
                return list(csv.reader(f, delimiter=separator))
        given, got = rows(sys.argv[1]), rows(sys.argv[2])
        column = int(sys.argv[3])
        changed = abs(len(given) - len(got))
        wrong = 0
        for before, after in zip(given[1:], got[1:]):
            if after[:len(before)] != before:
                changed += 1
            elif after[len(before):] != [before[column], "US", ""]:
                wrong += 1
        print(json.dumps({"rows": len(got), "changed": changed, "wrong": wrong}))
        """

    /// Reads JSON lines and their output with Python's `json`: every output line parses, its
    /// object less `ipdata` is the input's, and `ipdata.ip` is the object's own `ip`.
    private static let jsonCheck = """
        import json, sys
        given = open(sys.argv[1], "rb").read().decode("utf-8-sig").splitlines()
        got = open(sys.argv[2], "rb").read().decode("utf-8-sig").splitlines()
        changed = wrong = 0
        for before, after in zip(given, got):
            a, b = json.loads(before), json.loads(after)
            data = b.pop("ipdata")
            if a != b:
                changed += 1
            elif data.get("ip") != a["ip"] or data.get("country_code") != "US":
                wrong += 1
        print(json.dumps({"lines": len(got), "changed": changed + abs(len(given) - len(got)), "wrong": wrong}))
        """

    /// Runs `script` with python3 on `input` and `output` (written to a file) and `arguments`,
    /// and returns the JSON object it prints.
    private func python(_ script: String, _ input: URL, _ output: Data, _ arguments: [String]) throws -> [String: Int] {
        let outputFile = try makeTemporaryDirectory().appendingPathComponent("output")
        try output.write(to: outputFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, input.path, outputFile.path] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, problem)
        guard case .object(let members)? = try? JSONParser.parse(printed) else {
            XCTFail("python printed \(String(decoding: printed, as: UTF8.self)) \(problem)")
            return [:]
        }
        return members.compactMapValues { if case .integer(let value) = $0 { return Int(value) } else { return nil } }
    }

    /// The body lengths of the `POST /bulk` requests the server saw since `mark`, once there are
    /// `count` of them (or after 5 s).
    private func bulkRequests(since mark: UInt64, atLeast count: Int) throws -> [Int] {
        _ = try accessEntries(since: mark, atLeast: count)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: server["IPDATA_TEST_ACCESS_LOG"] ?? ""))
        defer { try? handle.close() }
        try handle.seek(toOffset: mark)
        let data = try handle.readToEnd() ?? Data()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line -> Int? in
            guard case .object(let entry)? = try? JSONParser.parse(Data(line)), entry["mode"] == .string("normal"),
                entry["uri"] == .string("/bulk"), case .string(let length)? = entry["content_length"]
            else { return nil }
            return Int(length)
        }
    }

    /// The total length of the bodies of `requests` bulk requests that carry `addresses` between
    /// them, each once: `["a","b"]` is 2 bytes of brackets, and each address 3 more than its text
    /// (its quotes and a comma, one fewer per request).
    private static func bodyLength(of addresses: [String], requests: Int) -> Int {
        addresses.reduce(0) { $0 + $1.utf8.count + 3 } + requests
    }

    private static func firstDifference(_ a: Data, _ b: Data) -> Int {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    }

    /// Fails unless `text` has the lines of `expected`, naming how many differ and the first ones.
    private func assertSameLines(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line)
    {
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let wrong = zip(got, wanted).enumerated().filter { $0.element.0 != $0.element.1 }
        XCTAssertEqual(got.count, wanted.count, "lines", file: file, line: line)
        XCTAssertTrue(
            wrong.isEmpty,
            "\(wrong.count) lines differ, first: \(wrong.prefix(3).map { "\($0.offset + 1): \($0.element.0)" })",
            file: file, line: line)
    }
}

/// A deterministic source of indices, each picked with the probability of its weight (a linear
/// congruential generator over the cumulative weights).
private struct Generator {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private let cumulative: [Double]

    init(weights: [Double]) {
        var total = 0.0
        cumulative = weights.map { weight in
            total += weight
            return total
        }
    }

    mutating func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let target = Double(state >> 11) / Double(1 << 53) * (cumulative.last ?? 0)
        var (low, high) = (0, cumulative.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > target { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
#endif
