// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

@testable import ipdata_cli

/// `tail -f access.log | ipdata …`: a writer that pauses after each line, and writes the next
/// only once the output of that line has arrived on `ipdata`'s standard output (a pipe), or
/// fails the test after 5 s. What the live run writes is byte for byte what a run over the same
/// lines from a file writes, with the same exit status.
final class LiveInputTests: CommandLineTestCase {
    /// How long a line's output may take to arrive.
    static let patience: TimeInterval = 5

    /// `ipdata` running with a pipe on either side: the test writes its input line by line.
    final class LiveRun {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private let errors = Pipe()
        private let received = Locked(Data())
        private let reader = DispatchGroup()

        init(_ arguments: [String], environment: [String: String]) throws {
            process.executableURL = BuiltBinary.url
            process.arguments = arguments
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let (handle, received) = (output.fileHandleForReading, received)
            reader.enter()
            DispatchQueue.global().async { [reader] in
                while case let data = handle.availableData, !data.isEmpty {
                    received.withLock { $0.append(data) }
                }
                reader.leave()
            }
        }

        func write(_ text: String) {
            input.fileHandleForWriting.write(Data(text.utf8))
        }

        var stdout: Data { received.withLock { $0 } }

        /// Waits until standard output holds `count` line ends; whether it did in time.
        func waitForLines(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(LiveInputTests.patience)
            while Date() < deadline {
                if stdout.filter({ $0 == 0x0A }).count >= count { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }

        /// Ends the input and waits for the run to end.
        func finish() -> (status: Int32, stdout: Data, stderr: String) {
            input.fileHandleForWriting.closeFile()
            process.waitUntilExit()
            reader.wait()
            let stderr = errors.fileHandleForReading.readDataToEndOfFile()
            return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
        }
    }

    /// Writes `lines` one at a time to `ipdata arguments…`, waiting after each until standard
    /// output holds `linesOut[i]` lines in all; then checks the output and status against a run
    /// over the same lines from a file. Returns the live run's output.
    @discardableResult
    private func assertLive(
        _ arguments: [String], lines: [String], linesOut: [Int], extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Data {
        _ = try ipdata(["--version"])  // skips, or fails, when there is no binary
        let run = try LiveRun(arguments, environment: childEnvironment(key: key, extra: extra))
        for (index, text) in lines.enumerated() {
            run.write(text)
            let arrived = run.waitForLines(linesOut[index])
            XCTAssertTrue(
                arrived, "the output of line \(index + 1) did not arrive while the input waited: \(run.stdout)",
                file: file, line: line)
            if !arrived { break }
        }
        let live = run.finish()
        let fromFile = try ipdata(arguments, stdin: lines.joined(), extra: extra)
        XCTAssertEqual(live.status, fromFile.status, live.stderr, file: file, line: line)
        XCTAssertEqual(live.stdout, fromFile.stdoutBytes, "the live output is the file run's", file: file, line: line)
        return live.stdout
    }

    /// The addresses of JSON lines, in order.
    private func addresses(_ jsonLines: Data) throws -> [String] {
        try String(decoding: jsonLines, as: UTF8.self).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["ip"] as? String ?? ""
        }
    }

    private let mixed = ["8.8.8.8\n", "1.1.1.1\r\n", "10.0.0.1\n", "2001:4860:4860::8888\n", "8.8.8.8\n", "9.9.9.9\n"]

    func testBulkWritesEachRecordBeforeTheNextLineComes() throws {
        let output = try assertLive(
            ["bulk", "-", "--flush-interval", "0.2", "--no-progress"] + base, lines: mixed,
            linesOut: [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(
            try addresses(output), ["8.8.8.8", "1.1.1.1", "10.0.0.1", "2001:4860:4860::8888", "8.8.8.8", "9.9.9.9"])
    }

    func testBulkWithTheDefaultIntervalWritesEachRecordBeforeTheNextLineComes() throws {
        try assertLive(
            ["bulk", "--no-progress", "-f", "ip,country_code"] + base, lines: Array(mixed.prefix(3)),
            linesOut: [1, 2, 3])
    }

    func testBulkCSVWritesItsHeaderAndEachRowBeforeTheNextLineComes() throws {
        try assertLive(
            ["bulk", "-", "--format", "csv", "-f", "ip,country_code", "--flush-interval", "0"] + base,
            lines: mixed, linesOut: [2, 3, 4, 5, 6, 7])
    }

    /// A cached address and a private one need no request: they arrive with an interval far
    /// longer than the test waits.
    func testCachedAndPrivateAddressesArriveWithoutWaitingForTheInterval() throws {
        let cache = ["IPDATA_CACHE_DIR": home.appendingPathComponent("cache").path]
        let fill = try ipdata(["bulk", "-", "--no-progress"] + base, stdin: "8.8.8.8\n", extra: cache)
        XCTAssertEqual(fill.status, 0, fill.stderr)
        _ = try ipdata(["--version"])
        let run = try LiveRun(
            ["bulk", "-", "--flush-interval", "600", "--no-progress"] + base,
            environment: childEnvironment(key: key, extra: cache))
        run.write("8.8.8.8\n")
        XCTAssertTrue(run.waitForLines(1), "the cached answer waited")
        run.write("192.168.0.1\n")
        XCTAssertTrue(run.waitForLines(2), "the private address's record waited")
        run.write("1.1.1.1\n")
        let end = run.finish()
        XCTAssertEqual(try addresses(end.stdout), ["8.8.8.8", "192.168.0.1", "1.1.1.1"])
        XCTAssertEqual(end.status, 1, "the private address's record is an error: \(end.stderr)")
    }

    func testTheBareCommandOnAPipeWritesEachRecordBeforeTheNextLineComes() throws {
        try assertLive(["--flush-interval", "0.2"] + base, lines: mixed, linesOut: [1, 2, 3, 4, 5, 6])
    }

    /// Log lines: each is written with a line per address under it; a line without an address
    /// and one whose address was answered already are written at once too.
    func testEnrichWritesEachLogLineBeforeTheNextLineComes() throws {
        let log = [
            "8.8.8.8 - - [01/Dec/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 512\n",
            "-- MARK --\r\n",
            "1.1.1.1 - - [01/Dec/2026:10:00:01 +0000] \"GET /a HTTP/1.1\" 404 0\r\n",
            "8.8.8.8 - - [01/Dec/2026:10:00:02 +0000] \"GET /b HTTP/1.1\" 200 10\n",
            "from 10.1.2.3 to 2001:4860:4860::8888 via 9.9.9.9\n",
        ]
        let output = try assertLive(
            ["enrich", "-", "--flush-interval", "0.2", "-f", "country_code"] + base, lines: log,
            linesOut: [2, 3, 5, 7, 11])
        let text = String(decoding: output, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(log[0] + "  ipdata 8.8.8.8: country_code=US\n" + log[1]), text)
    }

    func testEnrichWritesEachCSVRowBeforeTheNextLineComes() throws {
        let rows = ["time,ip,path\r\n", "1,8.8.8.8,/\r\n", "2,,/empty\r\n", "3,1.1.1.1,/a\r\n", "4,8.8.8.8,/b\r\n"]
        let output = try assertLive(
            ["enrich", "-", "--as", "csv", "--flush-interval", "0.2", "-f", "country_code"] + base, lines: rows,
            linesOut: [1, 2, 3, 4, 5])
        let text = String(decoding: output, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("time,ip,path,country_code,ipdata_error\r\n1,8.8.8.8,/,US,\r\n"), text)
    }

    func testGrepOnlyMatchingWritesEachAddressBeforeTheNextLineComes() throws {
        let log = [
            "8.8.8.8 - - \"GET / HTTP/1.1\" 200\n", "no address here\n", "[2001:db8::1]:443 and 1.1.1.1\r\n",
            "10.0.0.1\n",
        ]
        let output = try assertLive(["grep", "-o"], lines: log, linesOut: [1, 1, 3, 4])
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "8.8.8.8\n2001:db8::1\n1.1.1.1\n10.0.0.1\n")
    }

    /// `filter` looks each line's addresses up: every kept line arrives before the next is written.
    func testFilterWritesEachKeptLineBeforeTheNextLineComes() throws {
        let log = ["a 8.8.8.8 GET /\n", "b 1.1.1.1 GET /a\r\n", "c [2001:4860:4860::8888]:443\n", "d 9.9.9.9\n"]
        let output = try assertLive(
            ["filter", "--where", "ip in 0.0.0.0/0 or ip in ::/0", "--flush-interval", "0.2"] + base, lines: log,
            linesOut: [1, 2, 3, 4])
        XCTAssertEqual(output, Data(log.joined().utf8))
    }

    func testGrepWritesEachLineBeforeTheNextLineComes() throws {
        try assertLive(
            ["grep"], lines: ["a 8.8.8.8\n", "b 1.1.1.1\r\n", "c none\n", "d 9.9.9.9\n"], linesOut: [1, 2, 2, 3])
    }

    /// Lines a few at a time, thousands of them, paused at random: every record arrives before
    /// the next burst, in input order.
    func testBurstsOfLinesArriveInInputOrder() throws {
        var generator = SeededGenerator(seed: 26)
        let lines = (0..<1_500).map { index -> String in
            let address =
                index % 7 == 0
                ? "2001:4860:\(String(index + 1, radix: 16))::1"
                : "8.\(index / 65_536).\(index / 256 % 256).\(index % 256)"
            return address + (index % 3 == 0 ? "\r\n" : "\n")
        }
        var bursts: [String] = []
        var ends: [Int] = []
        var written = 0
        while written < lines.count {
            let count = min(Int.random(in: 1...250, using: &generator), lines.count - written)
            bursts.append(lines[written..<(written + count)].joined())
            written += count
            ends.append(written)
        }
        let output = try assertLive(
            ["bulk", "-", "--flush-interval", "0.1", "--no-progress", "-f", "ip"] + base, lines: bursts, linesOut: ends)
        XCTAssertEqual(
            try addresses(output),
            lines.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }
}

#endif
