// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLILibC
import CLITestSupport
import DiskCache
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// The cache of answers, across runs of the built binary against the local server: a second run
/// sends nothing and prints the same bytes. Every run of a test shares one cache folder.
final class CacheTests: CommandLineTestCase {
    private var cacheFolder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        cacheFolder = home.appendingPathComponent("the-cache", isDirectory: true)
    }

    /// `ipdata arguments…` with this test's cache.
    private func cached(
        _ arguments: [String], key: KeyVariable = .paidPlan, stdin: String? = nil, extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> BuiltBinary.Run {
        try ipdata(
            arguments, key: key, stdin: stdin, extra: ["IPDATA_CACHE_DIR": cacheFolder.path].merging(extra) { $1 },
            file: file, line: line)
    }

    /// The requests of `body`'s runs, once those of earlier runs are all in the log.
    private func requests(
        expecting count: Int, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) throws -> Int {
        let mark = accessLogMark()
        try body()
        return try accessEntries(since: mark, atLeast: count).count
    }

    /// Every regular file under the cache folder: the database and SQLite's files beside it.
    private func cacheFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cacheFolder.path)) ?? []
        return names.map { cacheFolder.path + "/" + $0 }.filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }

    /// How many answers the cache holds, of every scope.
    private func entryCount() throws -> Int {
        try CacheDatabase.openExisting(CacheConfiguration(directory: cacheFolder.path))?.info().entries ?? 0
    }

    /// Sets the time of every entry `seconds` back, as if they had been stored then (the
    /// database's `stored` column, by `sqlite3`).
    private func ageEntries(by seconds: TimeInterval) throws {
        let milliseconds = Int64(seconds * 1_000)
        _ = try ToolRun.output(
            "sqlite3", [cacheFolder.path + "/answers.sqlite", "UPDATE answer SET stored = stored - \(milliseconds)"])
    }

    private let input = "8.8.8.8\n1.1.1.1\n2001:4860:4860::8888\n8.8.4.4\n9.9.9.9\n"

    func testASecondBulkRunSendsNothingAndPrintsTheSameBytes() throws {
        for format in ["jsonl", "csv", "json"] {
            try? FileManager.default.removeItem(at: cacheFolder)
            var first: BuiltBinary.Run!
            let sent = try requests(expecting: 1) {
                first = try cached(["bulk", "--format", format] + base, stdin: input)
            }
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertEqual(sent, 1)
            XCTAssertTrue(first.stderr.hasPrefix("ipdata: 5 records, 0 failed, 1 request sent, 0."), first.stderr)
            var second: BuiltBinary.Run!
            let again = try requests(expecting: 0) {
                second = try cached(["bulk", "--format", format] + base, stdin: input)
            }
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertEqual(again, 0, "answered from the cache")
            XCTAssertEqual(second.stdoutBytes, first.stdoutBytes, format)
            XCTAssertTrue(
                second.stderr.hasPrefix("ipdata: 5 records, 0 failed, 0 requests sent, 5 answers from the cache, "),
                second.stderr)
        }
    }

    func testOnlyTheAddressesTheCacheLacksAreSentInTheirPlace() throws {
        var plain: BuiltBinary.Run!
        // Each test waits for the log lines of the requests before those it counts.
        _ = try requests(expecting: 2) {
            _ = try cached(["bulk", "-q"] + base, stdin: "8.8.8.8\n9.9.9.9\n")
            plain = try ipdata(["bulk", "-q"] + base, stdin: "1.1.1.1\n8.8.8.8\n8.8.4.4\n9.9.9.9\n")
        }
        var run: BuiltBinary.Run!
        let sent = try requests(expecting: 1) {
            run = try cached(["bulk"] + base, stdin: "1.1.1.1\n8.8.8.8\n8.8.4.4\n9.9.9.9\n")
        }
        XCTAssertEqual(sent, 1)
        XCTAssertEqual(run.stdout, plain.stdout, "in input order")
        XCTAssertTrue(run.stderr.contains("1 request sent, 2 answers from the cache"), run.stderr)
    }

    func testCachedAnswersAmongMissesKeepInputOrderAndTheRequestsStayFew() throws {
        // 3,000 addresses: the cache lacks the first 300 (three full requests) and every 250th
        // after them, so that up to 1,000 cached answers (the most held, at --concurrency 1)
        // wait for a miss's request.
        let all = (0..<3_000).map { "9.1.\($0 / 256).\($0 % 256)" }
        let missing = Set(Array(0..<300) + Array(stride(from: 300, to: 3_000, by: 250)))
        let kept = all.indices.filter { !missing.contains($0) }.map { all[$0] }
        let input = all.joined(separator: "\n") + "\n"
        var plain: BuiltBinary.Run!
        _ = try requests(expecting: 27 + 30) {
            _ = try cached(["bulk", "-q"] + base, stdin: kept.joined(separator: "\n") + "\n")
            plain = try ipdata(["bulk", "-q"] + base, stdin: input)
        }
        var run: BuiltBinary.Run!
        let sent = try requests(expecting: 4) {
            run = try cached(["bulk", "--concurrency", "1"] + base, stdin: input)
        }
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutBytes, plain.stdoutBytes, "in input order")
        // 311 misses: 3 full requests, then the sparse ones, one request for each 1,000 answers held.
        XCTAssertTrue((4...8).contains(sent), "\(sent) requests")
        XCTAssertTrue(run.stderr.contains("2689 answers from the cache"), run.stderr)
    }

    func testNoCacheSendsEveryAddressAndKeepsNothing() throws {
        _ = try requests(expecting: 1) { _ = try cached(["bulk", "-q"] + base, stdin: input) }
        var run: BuiltBinary.Run!
        let sent = try requests(expecting: 1) { run = try cached(["bulk", "--no-cache"] + base, stdin: input) }
        XCTAssertEqual(sent, 1)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: 5 records, 0 failed, 1 request sent, 0."), run.stderr)
        let before = try entryCount()
        _ = try cached(["bulk", "-q", "--no-cache", "-f", "ip"] + base, stdin: input)
        XCTAssertEqual(try entryCount(), before, "nothing kept")
    }

    func testASingleLookupAndALookupOfSeveralAreCached() throws {
        var first: BuiltBinary.Run!
        _ = try requests(expecting: 1) { first = try cached(["8.8.8.8"] + base) }
        XCTAssertEqual(first.status, 0, first.stderr)
        var second: BuiltBinary.Run!
        XCTAssertEqual(try requests(expecting: 0) { second = try cached(["8.8.8.8"] + base) }, 0)
        XCTAssertEqual(second.stdoutBytes, first.stdoutBytes)
        XCTAssertEqual(second.stderr, "")
        var several: BuiltBinary.Run!
        _ = try requests(expecting: 1) { several = try cached(["8.8.8.8", "1.1.1.1", "-f", "ip,country_code"] + base) }
        var again: BuiltBinary.Run!
        XCTAssertEqual(
            try requests(expecting: 0) { again = try cached(["8.8.8.8", "1.1.1.1", "-f", "country_code,ip"] + base) },
            0, "the same field set, in another order")
        XCTAssertEqual(again.stdoutBytes, several.stdoutBytes)
    }

    func testEnrichAndSummarizeReadTheCache() throws {
        let log = try makeFile("a 8.8.8.8 b\nc 1.1.1.1 d\n", named: "access.log")
        var first: BuiltBinary.Run!
        _ = try requests(expecting: 1) { first = try cached(["enrich", log.path] + base) }
        XCTAssertEqual(first.status, 0, first.stderr)
        var second: BuiltBinary.Run!
        XCTAssertEqual(try requests(expecting: 0) { second = try cached(["enrich", log.path] + base) }, 0)
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(second.stderrLines, ["ipdata: 2 answers from the cache (nothing paid for them)"])
        _ = try requests(expecting: 1) { _ = try cached(["summarize"] + base, stdin: "8.8.8.8\n1.1.1.1\n") }
        var summary: BuiltBinary.Run!
        XCTAssertEqual(
            try requests(expecting: 0) { summary = try cached(["summarize"] + base, stdin: "8.8.8.8\n1.1.1.1\n") }, 0)
        XCTAssertEqual(summary.status, 0, summary.stderr)
    }

    func testAnswersWithThreatDataLive15MinutesOthers24Hours() throws {
        let plain = ["bulk", "-q", "-f", "ip,country_code"] + base
        let threat = ["bulk", "-q", "-f", "ip,threat"] + base
        let whole = ["bulk", "-q"] + base
        _ = try requests(expecting: 3) {
            for arguments in [plain, threat, whole] { _ = try cached(arguments, stdin: "8.8.8.8\n") }
        }
        try ageEntries(by: 20 * 60)
        XCTAssertEqual(try requests(expecting: 0) { _ = try cached(plain, stdin: "8.8.8.8\n") }, 0)
        XCTAssertEqual(try requests(expecting: 1) { _ = try cached(threat, stdin: "8.8.8.8\n") }, 1)
        XCTAssertEqual(try requests(expecting: 1) { _ = try cached(whole, stdin: "8.8.8.8\n") }, 1)
        try ageEntries(by: 25 * 3600)
        XCTAssertEqual(try requests(expecting: 1) { _ = try cached(plain, stdin: "8.8.8.8\n") }, 1)
    }

    /// An analyst's list: 300 distinct addresses, some of them hot (repeated all through it).
    private var analystList: String {
        var lines: [String] = []
        for index in 0..<300 {
            lines.append("9.7.\(index / 256).\(index % 256)")
            if index % 3 == 0 { lines.append(["8.8.8.8", "1.1.1.1", "2001:4860:4860::8888"][index % 9 / 3]) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every record of JSON lines, as Python's json module reads it: its keys in order.
    private func keysOfEachRecord(_ output: Data) throws -> [[String]] {
        let script = "import json, sys\nprint(json.dumps([list(json.loads(l)) for l in sys.stdin if l.strip()]))"
        let keys = try ToolRun.output("python3", ["-c", script], stdin: output)
        return try JSONDecoder().decode([[String]].self, from: keys)
    }

    /// A run of all fields pays once; then any --fields of those addresses is answered from its
    /// answers, with no request, and prints what the API sends for those fields, byte for byte.
    func testAFullAnswerAnswersAnyFieldsWithoutARequest() throws {
        let list = try makeFile(analystList, named: "ips.txt")
        var full: BuiltBinary.Run!
        XCTAssertEqual(try requests(expecting: 4) { full = try cached(["bulk", list.path] + base) }, 4)
        XCTAssertEqual(full.status, 0, full.stderr)
        let selections: [(arguments: [String], keys: [String]?)] = [
            (["-f", "ip,country_code"], ["ip", "country_code"]),
            (["-f", "threat,ip,asn"], ["ip", "asn", "threat"]),
            (["-f", "country_name,asn.name"], ["ip", "country_name", "asn"]),
            (["-f", "ip,threat.is_threat,asn.asn", "--format", "csv"], nil),
        ]
        for selection in selections {
            let arguments = ["bulk", list.path] + selection.arguments + base
            var fromCache: BuiltBinary.Run!
            let sent = try requests(expecting: 0) { fromCache = try cached(arguments) }
            XCTAssertEqual(fromCache.status, 0, fromCache.stderr)
            XCTAssertEqual(sent, 0, "\(selection.arguments): paid again")
            var fromServer: BuiltBinary.Run!
            _ = try requests(expecting: 4) { fromServer = try ipdata(arguments + ["--no-cache"]) }
            XCTAssertEqual(fromCache.stdoutBytes, fromServer.stdoutBytes, "\(selection.arguments)")
            if let keys = selection.keys {
                let records = try keysOfEachRecord(fromCache.stdoutBytes)
                XCTAssertEqual(records.count, analystList.split(separator: "\n").count)
                XCTAssertTrue(records.allSatisfy { $0 == keys }, "\(Set(records))")
            }
        }
    }

    /// The full answer's fields other than threat serve for 24 hours, its threat data for 15
    /// minutes (entries aged by hand).
    func testAFullAnswersFieldsServe24HoursAndItsThreatData15Minutes() throws {
        let list = try makeFile(analystList, named: "ips.txt")
        _ = try requests(expecting: 4) { _ = try cached(["bulk", "-q", list.path] + base) }
        let plain = ["bulk", "-q", list.path, "-f", "ip,country_code,asn"] + base
        let threat = ["bulk", "-q", list.path, "-f", "ip,threat"] + base
        XCTAssertEqual(try requests(expecting: 0) { _ = try cached(threat) }, 0, "threat data younger than 15 min")
        try ageEntries(by: 20 * 60)
        XCTAssertEqual(try requests(expecting: 0) { _ = try cached(plain) }, 0)
        XCTAssertEqual(try requests(expecting: 4) { _ = try cached(threat) }, 4, "threat data older than 15 min")
        try ageEntries(by: 23 * 3600)
        XCTAssertEqual(try requests(expecting: 0) { _ = try cached(plain) }, 0)
        try ageEntries(by: 25 * 3600)
        XCTAssertEqual(try requests(expecting: 4) { _ = try cached(plain) }, 4)
    }

    func testErrorsAreNeverKept() throws {
        // A private address the API rejects, and a refused key.
        var (rejected, refused, quota): (BuiltBinary.Run?, BuiltBinary.Run?, BuiltBinary.Run?)
        _ = try requests(expecting: 3) {
            // One address is sent as it is, even a private one (bulk answers those locally).
            rejected = try cached(["10.0.0.1"] + base)
            refused = try cached(["bulk", "-q"] + base, key: .given("not-a-valid-key"), stdin: "8.8.8.8\n")
            quota = try cached(["8.8.8.8"] + base, key: .given(server["IPDATA_TEST_QUOTA_KEY"] ?? "quota-key"))
        }
        XCTAssertEqual(rejected?.status, 1)
        XCTAssertEqual(refused?.status, 3, refused?.stderr ?? "")
        XCTAssertNotEqual(quota?.status, 0)
        XCTAssertEqual(try entryCount(), 0)
        XCTAssertEqual(try requests(expecting: 1) { _ = try cached(["10.0.0.1"] + base) }, 1)
    }

    func testTheSandboxTheServerAndEachKeyHaveEntriesOfTheirOwn() throws {
        let sandbox = try cached(["--sandbox", "8.8.8.8"], key: .absent)
        XCTAssertEqual(sandbox.status, 0, sandbox.stderr)
        var real: BuiltBinary.Run!
        XCTAssertEqual(try requests(expecting: 1) { real = try cached(["8.8.8.8"] + base) }, 1)
        XCTAssertEqual(real.status, 0, real.stderr)
        let again = try cached(["--sandbox", "8.8.8.8"], key: .absent)
        XCTAssertEqual(again.stdout, sandbox.stdout, "the sandbox's own answer, not the server's")
        // Another key may be on another plan: its answers are its own.
        let other = server["IPDATA_TEST_FREE_KEY"] ?? "free-key"
        XCTAssertEqual(try requests(expecting: 1) { _ = try cached(["8.8.8.8"] + base, key: .given(other)) }, 1)
        XCTAssertEqual(try requests(expecting: 0) { _ = try cached(["8.8.8.8"] + base, key: .given(other)) }, 0)
    }

    func testTheFolderIsPrivateAndNoFileHoldsTheKey() throws {
        _ = try cached(["bulk", "-q"] + base, stdin: input)
        var status = stat()
        XCTAssertEqual(stat(cacheFolder.path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o700)
        XCTAssertEqual(try entryCount(), 5)
        let files = cacheFiles()
        XCTAssertTrue(files.contains(cacheFolder.path + "/answers.sqlite"), "\(files)")
        for path in files {
            XCTAssertEqual(stat((path as NSString).deletingLastPathComponent, &status), 0)
            XCTAssertEqual(status.st_mode & 0o777, 0o700, path)
            XCTAssertEqual(stat(path, &status), 0)
            XCTAssertEqual(status.st_mode & 0o777, 0o600, path)
            XCTAssertFalse(path.contains(key))
            let content = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertNil(content.range(of: Data(key.utf8)), path)
        }
    }

    func testTheDefaultFolderIsInXDGCacheHome() throws {
        let base = home.appendingPathComponent("xdg-cache", isDirectory: true)
        _ = try ipdata(["bulk", "-q"] + self.base, stdin: "8.8.8.8\n", extra: ["XDG_CACHE_HOME": base.path])
        let info = try ipdata(["cache", "info"], extra: ["XDG_CACHE_HOME": base.path])
        XCTAssertEqual(info.stdoutLines.first, "location  " + base.appendingPathComponent("ipdata").path)
        XCTAssertTrue(info.stdout.contains("entries   1 (1 live, 0 expired)\n"), info.stdout)
    }

    func testCacheInfoAndClear() throws {
        let empty = try cached(["cache", "info"])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stdoutLines.first, "location  \(cacheFolder.path) (not created yet)")
        XCTAssertTrue(empty.stdout.contains("entries   0 (0 live, 0 expired)\n"), empty.stdout)
        XCTAssertTrue(empty.stdout.contains("lifetime  24 h; 15 min for a lookup with threat data\n"), empty.stdout)
        XCTAssertTrue(empty.stdout.contains("bound     about 200000 entries (IPDATA_CACHE_MAX_ENTRIES)\n"))
        _ = try requests(expecting: 1) { _ = try cached(["bulk", "-q"] + base, stdin: input) }
        let info = try cached(["cache", "info"], extra: ["IPDATA_CACHE_MAX_ENTRIES": "1000"])
        XCTAssertTrue(info.stdout.contains("entries   5 (5 live, 0 expired)\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("\noldest    20"), info.stdout)
        XCTAssertTrue(info.stdout.contains("bound     about 1000 entries"), info.stdout)
        let clear = try cached(["cache", "clear"])
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertEqual(clear.stdout, "removed 5 entries from \(cacheFolder.path)\n")
        XCTAssertTrue(try cached(["cache", "info"]).stdout.contains("entries   0 "))
        XCTAssertEqual(try requests(expecting: 1) { _ = try cached(["bulk", "-q"] + base, stdin: input) }, 1)
        let bad = try cached(["cache", "info"], extra: ["IPDATA_CACHE_MAX_ENTRIES": "many"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(
            bad.stderrLines,
            ["ipdata: IPDATA_CACHE_MAX_ENTRIES must be a whole number from 1 to 100000000 (see ipdata cache --help)"])
    }

    /// `cache info` counts what is there: entries a lookup still reads and those it no longer
    /// does (by the lifetimes), and the space on disk as `du -sk` reports it.
    func testCacheInfoCountsLiveAndExpiredEntriesAndTheSpaceDuReports() throws {
        let addresses = (0..<300).map { "9.6.\($0 / 256).\($0 % 256)" }
        func run(_ range: Range<Int>, _ fields: [String]) throws {
            let list = addresses[range].joined(separator: "\n") + "\n"
            _ = try requests(expecting: (range.count + 99) / 100) {
                _ = try cached(["bulk", "-q"] + fields + base, stdin: list)
            }
        }
        try run(0..<200, [])  // all fields: threat data included
        try run(200..<250, ["-f", "ip,threat"])
        try run(250..<300, ["-f", "ip,country_code"])
        func info() throws -> (entries: String, diskBytes: Int, du: Int) {
            let run = try cached(["cache", "info"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let lines = run.stdoutLines
            let entries = try XCTUnwrap(lines.first { $0.hasPrefix("entries ") }, run.stdout)
            let size = try XCTUnwrap(lines.first { $0.hasPrefix("size ") }, run.stdout)
            // `size      1.4 MB (1425408 bytes) on disk, …`
            let bytes = try XCTUnwrap(size.split(separator: "(").dropFirst().first?.split(separator: " ").first, size)
            let du = String(decoding: try ToolRun.output("du", ["-sk", cacheFolder.path]), as: UTF8.self)
            let kibibytes = try XCTUnwrap(Int(du.prefix { $0.isNumber }), du)
            XCTAssertTrue(size.contains(" on disk"), size)
            return (entries, try XCTUnwrap(Int(bytes), size), kibibytes * 1024)
        }
        var now = try info()
        XCTAssertEqual(now.entries, "entries   300 (300 live, 0 expired)")
        XCTAssertEqual(now.diskBytes, now.du, "as du -sk counts it")
        try ageEntries(by: 20 * 60)
        now = try info()
        XCTAssertEqual(now.entries, "entries   300 (250 live, 50 expired)", "threat data is read for 15 min")
        try ageEntries(by: 25 * 3600)
        now = try info()
        XCTAssertEqual(now.entries, "entries   300 (0 live, 300 expired)")
        XCTAssertEqual(now.diskBytes, now.du)
    }

    func testADryRunCountsAndSendsNothing() throws {
        let file = try makeFile("8.8.8.8\n1.1.1.1\n8.8.8.8\nnot-an-address\n10.0.0.0/30\n", named: "ips.txt")
        _ = try requests(expecting: 1) { _ = try cached(["bulk", "-q"] + base, stdin: "8.8.8.8\n") }
        let output = home.appendingPathComponent("out.jsonl")
        var run: BuiltBinary.Run!
        let sent = try requests(expecting: 0) {
            run = try cached(["bulk", "--dry-run", "--output", output.path, file.path] + base)
        }
        XCTAssertEqual(sent, 0)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout,
            "dry run: 8 addresses read, 7 distinct; of the 7 distinct addresses: 1 in the cache, 4 answered locally "
                + "(private or reserved), 1 invalid, 1 to send in 1 bulk request; nothing was sent\n")
        XCTAssertEqual(run.stderr, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "no output is written")
        let many = (0..<250).map { "9.9.\($0 / 256).\($0 % 256)" }.joined(separator: "\n")
        let big = try cached(["bulk", "--dry-run", "--no-cache"] + base, stdin: many)
        XCTAssertEqual(
            big.stdout,
            "dry run: 250 addresses read, 250 distinct; of the 250 distinct addresses: 0 in the cache, 250 to send in "
                + "3 bulk requests; nothing was sent\n")
        XCTAssertEqual(try entryCount(), 1, "a dry run keeps nothing")
    }

    func testADryRunOfEnrichAndSummarizeCountsTheirAddressesAndSendsNothing() throws {
        // Each command asks for fields of its own, so each fills the cache for itself first.
        let primer = try makeFile("8.8.8.8\n", named: "primer.log")
        _ = try requests(expecting: 1) { _ = try cached(["enrich", primer.path] + base) }
        _ = try requests(expecting: 1) { _ = try cached(["summarize"] + base, stdin: "8.8.8.8\n") }
        let csv = try makeFile("name,ip\na,8.8.8.8\nb,1.1.1.1\nc,8.8.8.8\nd,nothing\n", named: "hosts.csv")
        let output = home.appendingPathComponent("enriched.csv")
        var enrich: BuiltBinary.Run!
        XCTAssertEqual(
            try requests(expecting: 0) {
                enrich = try cached(["enrich", "--dry-run", "--output", output.path, csv.path] + base)
            }, 0)
        XCTAssertEqual(enrich.status, 0, enrich.stderr)
        XCTAssertEqual(
            enrich.stdout,
            "dry run: 4 addresses read, 3 distinct; of the 3 distinct addresses: 1 in the cache, 1 invalid, 1 to send "
                + "in 1 bulk request; nothing was sent\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "no output is written")
        // A column that is not there is the same usage error as in a real run.
        let missing = try cached(["enrich", "--dry-run", "--column", "address", csv.path] + base)
        XCTAssertEqual(missing.status, 2, missing.stderr)
        // Records that ipdata bulk wrote cost nothing: only the addresses are counted.
        let record = #"{"ip":"9.9.9.9","country_name":"Switzerland"}"#
        var summarize: BuiltBinary.Run!
        XCTAssertEqual(
            try requests(expecting: 0) {
                summarize = try cached(
                    ["summarize", "--dry-run"] + base, stdin: "8.8.8.8\n1.1.1.1\n2.2.2.2\n\(record)\n")
            }, 0)
        XCTAssertEqual(summarize.status, 0, summarize.stderr)
        XCTAssertEqual(
            summarize.stdout,
            "dry run: 3 addresses read, 3 distinct; of the 3 distinct addresses: 1 in the cache, 2 to send in 1 bulk "
                + "request; nothing was sent\n")
        XCTAssertEqual(try entryCount(), 2, "a dry run keeps nothing")
    }

    func testADryRunOfALookupCountsSingleLookupsAndBulkRequests() throws {
        _ = try requests(expecting: 1) { _ = try cached(["8.8.8.8"] + base) }
        var one: BuiltBinary.Run!
        var two: BuiltBinary.Run!
        let sent = try requests(expecting: 0) {
            one = try cached(["1.1.1.1", "--dry-run"] + base)
            two = try cached(["8.8.8.8", "1.1.1.1", "--dry-run"] + base)
        }
        XCTAssertEqual(sent, 0)
        XCTAssertEqual(
            one.stdout,
            "dry run: 1 address read, 1 distinct; of the 1 distinct address: 0 in the cache, 1 to send in 1 single "
                + "lookup; nothing was sent\n")
        XCTAssertEqual(
            two.stdout,
            "dry run: 2 addresses read, 2 distinct; of the 2 distinct addresses: 1 in the cache, 1 to send in 1 bulk "
                + "request; nothing was sent\n")
        let asn = try cached(["AS15169", "--dry-run"] + base)
        XCTAssertEqual(asn.status, 2)
        XCTAssertEqual(
            asn.stderrLines, ["ipdata: --dry-run counts lookups of addresses: give the addresses (see ipdata --help)"])
    }

    func testTwoRunsAtOnceShareTheCache() throws {
        let addresses = (0..<300).map { "9.8.\($0 / 256).\($0 % 256)" }.joined(separator: "\n") + "\n"
        let stdin = try makeFile(addresses, named: "ips.txt")
        let environment = childEnvironment(key: key, extra: ["IPDATA_CACHE_DIR": cacheFolder.path])
        let arguments = ["bulk", "-q", stdin.path] + base
        let runs = Locked<[BuiltBinary.Run]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let run = try? BuiltBinary.run(arguments, environment: environment) {
                runs.withLock { $0.append(run) }
            }
        }
        let both = runs.withLock { $0 }
        XCTAssertEqual(both.count, 2)
        XCTAssertEqual(both.map(\.status), [0, 0], both.map(\.stderr).joined())
        XCTAssertEqual(both[0].stdoutBytes, both[1].stdoutBytes)
        XCTAssertEqual(try entryCount(), 300, "one entry an address")
        var again: BuiltBinary.Run!
        XCTAssertEqual(try requests(expecting: 0) { again = try cached(arguments) }, 0)
        XCTAssertEqual(again.stdoutBytes, both[0].stdoutBytes)
    }
}
#endif
