// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import CLILibC
import XCTest

@testable import ipdata_cli

/// `ipdata bulk --resume`: an interrupted run continued, each address answered once, in order.
/// Against the local server, so that the requests can be counted.
final class ResumeTests: CommandLineTestCase {
    private func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testAJSONLinesOutputKeepsItsAnswersAndGetsOnlyWhatItLacks() throws {
        let folder = try makeTemporaryDirectory()
        let output = folder.appendingPathComponent("out.jsonl")
        // An earlier run: two answers, an error record, and a last line cut off mid-write.
        let first = try ipdata(["bulk", "-q", "--output", output.path] + base, stdin: "8.8.8.8\n1.1.1.1\n10.0.0.1\n")
        XCTAssertEqual(first.status, 1)
        let handle = try FileHandle(forWritingTo: output)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"ip":"9.9.9.9","cou"#.utf8))
        try handle.close()

        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "--resume", "--output", output.path] + base,
            stdin: "8.8.8.8\n1.1.1.1\n10.0.0.1\n9.9.9.9\n4.4.4.4\n")
        XCTAssertEqual(run.status, 1, "10.0.0.1 is still private")
        XCTAssertTrue(
            run.stderr.contains("resuming \(output.path): 2 records kept, 2 failed or cut off (looked up again)"),
            run.stderr)
        let records = try lines(of: output).map { try JSONParser.parse(Data($0.utf8)).value(at: ["ip"]) }
        XCTAssertEqual(records, ["8.8.8.8", "1.1.1.1", "10.0.0.1", "9.9.9.9", "4.4.4.4"].map(JSONValue.string))
        let sent = try accessEntries(since: mark, atLeast: 1).filter { $0.method == "POST" }
        XCTAssertEqual(sent.count, 1, "one bulk request")
        XCTAssertTrue(
            run.stderr.contains("ipdata: 3 records, 1 failed, 1 request sent"), "only three looked up: \(run.stderr)")
    }

    func testACSVOutputIsContinuedUnderItsHeader() throws {
        let output = try makeTemporaryDirectory().appendingPathComponent("out.csv")
        let csv = ["--format", "csv", "-f", "ip,country_code"]
        _ = try ipdata(["bulk", "-q", "--output", output.path] + csv + base, stdin: "8.8.8.8\n")
        let run = try ipdata(
            ["bulk", "-q", "--resume", "--output", output.path] + csv + base, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try lines(of: output), ["ip,country_code,error", "8.8.8.8,US,", "1.1.1.1,AU,"])
        let other = try ipdata(
            ["bulk", "-q", "--resume", "--output", output.path, "--format", "csv", "-f", "ip"] + base,
            stdin: "4.4.4.4\n")
        XCTAssertEqual(other.status, 2)
        XCTAssertTrue(other.stderr.contains("has the columns ip,country_code,error"), other.stderr)
        XCTAssertEqual(try lines(of: output).count, 3, "the file is left as it was")
    }

    // MARK: Going on after a stop

    /// `count` addresses of one length (13 characters, so that the body lengths the server logs
    /// count them), with a hot address every seventh line and another every eleventh.
    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { index in
            index % 7 == 3
                ? "9.200.200.200"
                : index % 11 == 5
                    ? "9.201.201.201" : "9.\(100 + index / 10_000).\(100 + index / 100 % 100).\(100 + index % 100)"
        }
    }

    /// How many addresses the answered bulk requests since `mark` carried, once the backend has
    /// logged `requests` of them (or after 5 s): each body is `["…","…"]`, 16 bytes an address
    /// and one more.
    private func addressesSent(since mark: UInt64, requests: Int) throws -> Int {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: server["IPDATA_TEST_BACKEND_LOG"] ?? ""))
            try handle.seek(toOffset: mark)
            let data = try handle.readToEnd() ?? Data()
            try handle.close()
            let bodies = data.split(separator: UInt8(ascii: "\n")).compactMap { line -> Int? in
                guard case .object(let entry)? = try? JSONParser.parse(Data(line)),
                    case .string("POST")? = entry["method"], case .string(let path)? = entry["path"],
                    path.hasSuffix("/bulk"), case .integer(200)? = entry["status"],
                    case .integer(let length)? = entry["body_len"]
                else { return nil }
                return length
            }
            if bodies.count >= requests || Date() > deadline {
                XCTAssertEqual(bodies.count, requests, "bulk requests the server answered")
                XCTAssertTrue(bodies.allSatisfy { ($0 - 1) % 16 == 0 }, "bodies of 13-character addresses: \(bodies)")
                return bodies.reduce(0) { $0 + ($1 - 1) / 16 }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// The number in the summary line's `N requests sent`.
    private func requestsSent(_ stderr: String) throws -> Int {
        let line = try XCTUnwrap(stderr.split(separator: "\n").first { $0.contains(" sent, ") }, stderr)
        let words = line.split(separator: " ")
        let index = try XCTUnwrap(words.firstIndex { $0.hasPrefix("request") }, String(line))
        return try XCTUnwrap(Int(words[index - 1]), String(line))
    }

    /// The partial outputs beside `output`.
    private func partialOutputs(of output: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("." + output.lastPathComponent + ".ipdata-") }.sorted()
    }

    /// The words of the command between the backquotes after `to go on, run `, as a shell reads
    /// them (Python's shlex).
    private func commandToGoOn(_ stderr: String) throws -> [String] {
        let marker = "; to go on, run `"
        let start = try XCTUnwrap(stderr.range(of: marker), "no command to go on: \(stderr)").upperBound
        let command = String(try XCTUnwrap(stderr[start...].split(separator: "`").first))
        let words = try python("import json, shlex, sys; print(json.dumps(shlex.split(sys.argv[1])))", [command])
        guard case .array(let values) = try JSONParser.parse(Data(words.utf8)) else { return [] }
        return values.compactMap { value -> String? in
            guard case .string(let word) = value else { return nil }
            return word
        }
    }

    /// What a Python program prints; it must exit 0.
    private func python(_ program: String, _ arguments: [String]) throws -> String {
        let run = try BuiltBinary.run(
            ["-c", program] + arguments, executable: URL(fileURLWithPath: "/usr/bin/python3"), environment: [:])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    /// Starts `ipdata arguments…`, waits until a partial output of `output` other than `old` has
    /// at least `lines` lines, waits `delay` seconds more, sends it `signal` (SIGINT), and returns
    /// its standard error once it exited 128 plus the signal's number.
    private func interrupt(
        _ arguments: [String], output: URL, once lines: Int, other old: String? = nil, signal: Int32 = SIGINT,
        delay: TimeInterval = 0
    ) throws -> String {
        let folder = output.deletingLastPathComponent()
        let stderr = try makeTemporaryDirectory().appendingPathComponent("stderr")
        try Data().write(to: stderr)
        let process = Process()
        process.executableURL = BuiltBinary.url
        process.arguments = arguments
        process.environment = childEnvironment(key: key)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        waiting: while Date() < deadline, process.isRunning {
            for name in try partialOutputs(of: output) where name != old {
                let data = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
                if data.reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }) >= lines { break waiting }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let messages = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 128 + signal, messages)
        return messages
    }

    /// Runs `words` (`ipdata …`, as a stop message gives it) with the built binary.
    private func run(_ words: [String]) throws -> BuiltBinary.Run {
        XCTAssertEqual(words.first, "ipdata")
        return try BuiltBinary.run(Array(words.dropFirst()), environment: childEnvironment(key: key))
    }

    /// Checks with Python's json module that `output` holds one answered record per address of
    /// `input`, in input order.
    private func assertOneAnsweredRecordPerAddressInOrder(_ output: URL, input: URL) throws {
        let verdict = try python(
            #"""
            import json, sys
            addresses = open(sys.argv[2]).read().split()
            records = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
            ips = [record["ip"] for record in records]
            failed = [record for record in records if "error" in record or record.get("country_code") != "US"]
            print("ok" if ips == addresses and not failed else "%d records for %d addresses, %d without an answer" % (len(ips), len(addresses), len(failed)))
            """#, [output.path, input.path])
        XCTAssertEqual(verdict, "ok\n")
    }

    func testAnInterruptedRunGoesOnFromItsPartialOutputWithTheCommandItGives() throws {
        let all = addresses(3000)
        let input = try makeFile(all.joined(separator: "\n") + "\n", named: "ips.txt")
        let folder = input.deletingLastPathComponent()
        let output = folder.appendingPathComponent("out.jsonl")
        // One bulk request at a time, 0.1 s each: the run is stopped after a few of them.
        let first = try interrupt(
            [
                "bulk", input.path, "-f", "ip,country_code", "--concurrency", "1", "--no-progress", "--output",
                output.path,
                "--base-url", url + "/delay/0.1",
            ], output: output, once: 500)
        let partial = try XCTUnwrap(try partialOutputs(of: output).first, first)
        let partialPath = folder.appendingPathComponent(partial).path
        XCTAssertTrue(
            first.contains(
                "ipdata: interrupted: the run did not finish: \(output.path) was not created; the partial "
                    + "output is in \(partialPath); to go on, run `ipdata bulk --resume "), first)
        let command = try commandToGoOn(first)

        // Interrupted again, it leaves one partial output that holds the first one's records, and
        // gives the same command.
        let second = try interrupt(Array(command.dropFirst()), output: output, once: 1500, other: partial)
        XCTAssertEqual(try commandToGoOn(second), command, second)
        let partials = try partialOutputs(of: output)
        XCTAssertEqual(partials.count, 1, "the first partial output is in the second: \(partials)")
        let secondPartial = try XCTUnwrap(partials.first)
        XCTAssertTrue(second.contains("resuming \(output.path) from the partial output \(partialPath)"), second)
        let kept = try String(contentsOf: folder.appendingPathComponent(secondPartial), encoding: .utf8)
            .split(separator: "\n").map { try object($0) }
        XCTAssertGreaterThanOrEqual(kept.count, 1500)
        let answered = Set(
            kept.compactMap { record -> String? in
                guard case .string(let ip)? = record["ip"] else { return nil }
                return ip
            })

        let mark = backendLogMark()
        let last = try run(command)
        XCTAssertEqual(last.status, 0, last.stderr)
        XCTAssertTrue(
            last.stderr.contains(
                "resuming \(output.path) from the partial output \(folder.path)/\(secondPartial) of a run that did not "
                    + "finish: \(kept.count) records kept"), last.stderr)
        try assertOneAnsweredRecordPerAddressInOrder(output, input: input)
        XCTAssertEqual(try partialOutputs(of: output), [], "the partial output was taken in")
        let sent = try addressesSent(since: mark, requests: try requestsSent(last.stderr))
        XCTAssertEqual(sent, Set(all).subtracting(answered).count, "only the addresses not answered yet were sent")
    }

    /// SIGTERM while records wait in the output's buffer (see `OutputSink`): the partial output
    /// holds whole records, in input order, of every answer but the one in flight; `--resume`
    /// keeps exactly those and sends only the rest.
    func testATerminatedRunKeepsEveryRecordItWroteAndTheResumeSendsOnlyTheRest() throws {
        let all = (0..<3000).map { "9.\(100 + $0 / 10_000).\(100 + $0 / 100 % 100).\(100 + $0 % 100)" }
        let input = try makeFile(all.joined(separator: "\n") + "\n", named: "ips.txt")
        let output = input.deletingLastPathComponent().appendingPathComponent("out.jsonl")
        let mark = backendLogMark()
        // One bulk request at a time, 0.12 s each. The buffer is written 0.1 s after an answer's
        // records came; the signal comes 0.05 s after that, when the next answer's records are
        // likely to be waiting in the buffer.
        let stopped = try interrupt(
            [
                "bulk", input.path, "-f", "ip,country_code", "--concurrency", "1", "--no-progress", "--output",
                output.path, "--base-url", url + "/delay/0.12",
            ], output: output, once: 700, signal: SIGTERM, delay: 0.05)
        Thread.sleep(forTimeInterval: 1)  // the backend logs a request a moment after its answer
        let answered = try sentAddresses(since: mark, requests: 0).addresses.count
        let partial = try XCTUnwrap(try partialOutputs(of: output).first, stopped)
        let text = try String(
            contentsOf: output.deletingLastPathComponent().appendingPathComponent(partial), encoding: .utf8)
        XCTAssertEqual(text.last, "\n", "whole records")
        let ips = try text.split(separator: "\n").map { line -> String in
            guard case .string(let ip)? = try object(line)["ip"] else { return "" }
            return ip
        }
        XCTAssertEqual(ips, Array(all.prefix(ips.count)), "in input order, none cut off")
        XCTAssertGreaterThanOrEqual(ips.count, answered - 100, "every answer but the one in flight: \(answered) sent")
        XCTAssertLessThanOrEqual(ips.count, answered)

        let mark2 = backendLogMark()
        let last = try run(try commandToGoOn(stopped))
        XCTAssertEqual(last.status, 0, last.stderr)
        XCTAssertTrue(last.stderr.contains("\(ips.count) records kept"), last.stderr)
        try assertOneAnsweredRecordPerAddressInOrder(output, input: input)
        let sent = try addressesSent(since: mark2, requests: try requestsSent(last.stderr))
        XCTAssertEqual(sent, all.count - ips.count, "only the addresses not written yet were sent")
    }

    func testARunStoppedByTheQuotaSaysHowToGoOnAndTheResumeFillsTheGapsInInputOrder() throws {
        let all = addresses(2000)
        let input = try makeFile(all.joined(separator: "\r\n") + "\r\n", named: "ips.txt")
        let output = input.deletingLastPathComponent().appendingPathComponent("results.csv")
        // Five requests answered, then the daily quota is spent: four in flight, so answers after
        // the first refused address are written too, past a gap.
        let quota = url + "/quota-after/5/\(UUID().uuidString)"
        let stopped = try ipdata(
            [
                "bulk", input.path, "--format", "csv", "-f", "ip,country_code", "--output", output.path, "--base-url",
                quota,
            ])
        XCTAssertEqual(stopped.status, 4, stopped.stderr)
        let partial = try XCTUnwrap(try partialOutputs(of: output).first, stopped.stderr)
        let partialURL = output.deletingLastPathComponent().appendingPathComponent(partial)
        XCTAssertTrue(
            stopped.stderr.contains("the partial output is in \(partialURL.path); to go on, run `"), stopped.stderr)
        // One way to go on: not also a `tail -n +N … | ipdata bulk` that would replace the file
        // with the rest of the input alone.
        XCTAssertFalse(stopped.stderr.contains("tail -n"), stopped.stderr)
        var command = try commandToGoOn(stopped.stderr)
        XCTAssertEqual(
            command,
            [
                "ipdata", "bulk", "--resume", "--fields", "ip,country_code", "--format", "csv", "--output", output.path,
                "--base-url", quota, input.path,
            ])
        let keptRows = try String(contentsOf: partialURL, encoding: .utf8).split(separator: "\n").dropFirst()
        // Five answered requests of 100 distinct addresses, and the hot addresses' repeats among them.
        XCTAssertGreaterThan(keptRows.count, 500)
        XCTAssertLessThan(keptRows.count, 2000)
        let answered = Set(keptRows.map { String($0.prefix { $0 != "," }) })

        // The next day: the same command, against a server whose quota is not spent.
        let index = try XCTUnwrap(command.firstIndex(of: quota))
        command[index] = url
        let mark = backendLogMark()
        let resumed = try run(command)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let verdict = try python(
            #"""
            import csv, sys
            addresses = open(sys.argv[2]).read().split()
            with open(sys.argv[1], newline="", encoding="utf-8") as file:
                rows = list(csv.reader(file))
            body = rows[1:]
            ok = rows[0] == ["ip", "country_code", "error"] and [row[0] for row in body] == addresses
            ok = ok and all(row[1] == "US" and row[2] == "" for row in body)
            print("ok" if ok else "header %s, %d rows for %d addresses" % (rows[0], len(body), len(addresses)))
            """#, [output.path, input.path])
        XCTAssertEqual(verdict, "ok\n")
        XCTAssertEqual(try partialOutputs(of: output), [])
        let sent = try addressesSent(since: mark, requests: try requestsSent(resumed.stderr))
        XCTAssertEqual(sent, Set(all).subtracting(answered).count, "only the addresses not answered yet were sent")
    }

    func testPartialOutputsAreNamedAndResumeTakesTheNewest() throws {
        let folder = try makeTemporaryDirectory()
        let output = folder.appendingPathComponent("out.jsonl")
        let older = folder.appendingPathComponent(".out.jsonl.ipdata-Older1")
        let newer = folder.appendingPathComponent(".out.jsonl.ipdata-Newer2")
        try Data(#"{"ip":"9.100.100.100","country_code":"XA"}\#n"#.utf8).write(to: older)
        try Data(#"{"ip":"9.100.100.100","country_code":"XB"}\#n"#.utf8).write(to: newer)
        let now = Date()
        try FileManager.default.setAttributes(
            [.modificationDate: now.addingTimeInterval(-100)], ofItemAtPath: older.path)
        try FileManager.default.setAttributes(
            [.modificationDate: now.addingTimeInterval(-50)], ofItemAtPath: newer.path)
        // Not partial outputs of out.jsonl: a link, another file's, one of another user's.
        let link = folder.appendingPathComponent(".out.jsonl.ipdata-Linked")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: older)
        try Data("{}\n".utf8).write(to: folder.appendingPathComponent(".other.jsonl.ipdata-Other3"))
        if geteuid() == 0 {
            let foreign = folder.appendingPathComponent(".out.jsonl.ipdata-Theirs")
            try Data(#"{"ip":"9.100.100.101","country_code":"XC"}\#n"#.utf8).write(to: foreign)
            XCTAssertEqual(chown(foreign.path, 4242, 4242), 0)
        }
        let options = ["-q", "-f", "ip,country_code", "--output", output.path] + base
        let resumed = try ipdata(["bulk", "--resume"] + options, stdin: "9.100.100.100\n9.100.100.101\n")
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(
            resumed.stderrLines,
            [
                "ipdata: resuming \(output.path) from the partial output \(newer.path) of a run that did not finish: "
                    + "1 record kept; it is the newest of 2, the others are left as they were: \(older.path)"
            ],
            "said with --quiet too, once")
        let records = try lines(of: output)
        XCTAssertEqual(records.first, #"{"ip":"9.100.100.100","country_code":"XB"}"#, "the newest partial output's")
        XCTAssertEqual(
            try records.map { try JSONParser.parse(Data($0.utf8)).value(at: ["ip"]) },
            [.string("9.100.100.100"), .string("9.100.100.101")])
        XCTAssertFalse(FileManager.default.fileExists(atPath: newer.path), "taken in")
        XCTAssertTrue(FileManager.default.fileExists(atPath: older.path))

        // A new run leaves it too, and says so; a resume now continues the file, newer than it.
        let fresh = try ipdata(["bulk"] + options, stdin: "9.100.100.102\n")
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(
            fresh.stderrLines,
            [
                "ipdata: 1 partial output of earlier runs that did not finish is beside \(output.path): \(older.path); "
                    + "remove it once it is not needed"
            ])
        let again = try ipdata(["bulk", "--resume"] + options, stdin: "9.100.100.102\n9.100.100.100\n")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(
            again.stderrLines,
            [
                "ipdata: resuming \(output.path): 1 record kept; partial outputs older than it are left as they were: "
                    + older.path
            ])
        XCTAssertEqual(try lines(of: output).count, 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: older.path))
    }

    func testEachRepeatOfAKeptAddressGetsItsRecordWhereTheInputHasIt() throws {
        let output = try makeTemporaryDirectory().appendingPathComponent("out.jsonl")
        let first = try ipdata(["bulk", "-q", "-f", "ip", "--output", output.path] + base, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(first.status, 0, first.stderr)
        let mark = accessLogMark()
        let run = try ipdata(
            ["bulk", "--resume", "-f", "ip", "--output", output.path] + base,
            stdin: "1.1.1.1\n8.8.8.8\n4.4.4.4\n8.8.8.8\n1.1.1.1\n8.8.4.4\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        let records = try lines(of: output).map { try JSONParser.parse(Data($0.utf8)).value(at: ["ip"]) }
        XCTAssertEqual(
            records, ["1.1.1.1", "8.8.8.8", "4.4.4.4", "8.8.8.8", "1.1.1.1", "8.8.4.4"].map(JSONValue.string),
            "one record per line of the input, in its order")
        let sent = try accessEntries(since: mark, atLeast: 1).filter { $0.method == "POST" }
        XCTAssertEqual(sent.count, 1, "one bulk request, for the two addresses not answered yet")
        XCTAssertTrue(run.stderr.contains("ipdata: 2 records, 0 failed, 1 request sent"), run.stderr)
    }

    func testResumeNeedsAFileAndLines() throws {
        let plain = try ipdata(["bulk", "--resume"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(plain.status, 2)
        XCTAssertTrue(plain.stderr.contains("--resume needs --output FILE"), plain.stderr)
        let output = try makeTemporaryDirectory().appendingPathComponent("out.json")
        let array = try ipdata(["bulk", "--resume", "--format", "json", "--output", output.path] + base, stdin: "")
        XCTAssertEqual(array.status, 2)
        XCTAssertTrue(array.stderr.contains("--resume needs --format jsonl or csv"), array.stderr)
    }
}
#endif
