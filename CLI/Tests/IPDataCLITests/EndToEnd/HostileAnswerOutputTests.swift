// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// An answer whose text values hold what a terminal acts on (the test server's
/// `/hostile/escapes/` answers: an escape sequence that retitles the window and clears the
/// screen, CR LF, a C1 CSI, a right-to-left override) never reaches a terminal raw, in any
/// format; to a file, CSV and JSON keep the API's values exactly.
final class HostileAnswerOutputTests: CommandLineTestCase {
    /// What the server puts in `city`, `region` and `asn.name`.
    private let hostile = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J\r\nforged 6.6.6.6 line\u{9B}31m\u{202E}TXE"
    /// The same, as a terminal is shown it.
    private let shown = #"Evil\x1b]0;pwned\x07\x1b[2J\x0d\x0aforged 6.6.6.6 line\x9b31m\u202eTXE"#

    private var hostileBase: [String] {
        ["--base-url", (server["IPDATA_TEST_URL_BACKEND"] ?? "") + "/hostile/escapes"]
    }

    /// Runs `ipdata arguments…` on a pseudo-terminal (util-linux `script`) and returns what the
    /// terminal was sent; errors are not coloured, so that every escape sequence would be the
    /// answer's.
    private func onTerminal(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let script = try terminalScript()
        let command =
            "stty cols 200 rows 24 && exec "
            + ([BuiltBinary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let run = try BuiltBinary.run(
            ["--quiet", "--return", "--command", command, "/dev/null"], executable: script,
            environment: childEnvironment(key: key, extra: ["NO_COLOR": "1"]), file: file, line: line)
        XCTAssertEqual(run.status, 0, run.stdout, file: file, line: line)
        return run.stdout
    }

    /// What a terminal shown `output` acts on: escape and control characters other than the
    /// line ends (the terminal's own CR LF), C1 controls, bidirectional overrides.
    private func actedOn(_ output: String) -> [Unicode.Scalar] {
        output.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
        }
    }

    private func addressFile() throws -> String {
        try makeFile("8.8.8.8\n1.1.1.1\n", named: "ips.txt").path
    }

    func testAFieldOnATerminalShowsControlCharactersAsEscapes() throws {
        let one = try onTerminal(["8.8.8.8", "--field", "city"] + hostileBase)
        XCTAssertEqual(actedOn(one), [], one)
        XCTAssertEqual(one, shown + "\r\n")
        let several = try onTerminal(["8.8.8.8", "1.1.1.1", "--field", "city", "-q"] + hostileBase)
        XCTAssertEqual(actedOn(several.replacingOccurrences(of: "\t", with: " ")), [], several)
        let oneLine = shown.replacingOccurrences(of: #"\x0d\x0a"#, with: " ")
        XCTAssertEqual(several, "8.8.8.8\t\(oneLine)\r\n1.1.1.1\t\(oneLine)\r\n")
        // An object stays JSON, its values the answer's.
        let object = try onTerminal(["8.8.8.8", "--field", "asn"] + hostileBase)
        XCTAssertEqual(actedOn(object), [], object)
        XCTAssertEqual(try self.object(object)["name"], .string(hostile))
    }

    func testCSVAndJSONOnATerminalShowControlCharactersAsEscapes() throws {
        let csv = try onTerminal(["bulk", "--format", "csv", "-f", "ip,city", "-q", try addressFile()] + hostileBase)
        XCTAssertEqual(actedOn(csv), [], csv)
        XCTAssertEqual(csv, "ip,city,error\r\n8.8.8.8,\(shown),\r\n1.1.1.1,\(shown),\r\n")
        let screen = TerminalScreen(columns: 200, showing: csv)
        XCTAssertEqual(screen.lines.count, 3, "no line is forged: \(screen.lines)")
        for format in ["jsonl", "json"] {
            let json = try onTerminal(["8.8.8.8", "--format", format, "-f", "ip,city,asn"] + hostileBase)
            XCTAssertEqual(actedOn(json), [], json)
            let record = try object(json.replacingOccurrences(of: "\r\n", with: "\n"))
            XCTAssertEqual(record["city"], .string(hostile), format)
            XCTAssertTrue(json.contains(#"line\u009b31m\u202eTXE"#), json)
        }
        let table = try onTerminal(["8.8.8.8", "--format", "table", "-f", "ip,city"] + hostileBase)
        XCTAssertEqual(actedOn(table), [], table)
    }

    /// To a file, CSV holds the API's values as they are, quoted as RFC 4180 says, and a field
    /// alone is the API's text: Python's `csv` reads the values back, byte for byte.
    func testToAFileCSVAndAFieldKeepTheAPIsValues() throws {
        let csv = try ipdata(
            ["bulk", "--format", "csv", "-f", "ip,city,asn.name", "-q", try addressFile()] + hostileBase)
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("needs python3 to read the CSV with an independent reader")
        }
        let read = try BuiltBinary.run(
            [
                "-c",
                "import csv, sys, json; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))",
                try makeFile(csv.stdout, named: "out.csv").path,
            ], executable: python, environment: [:])
        XCTAssertEqual(read.status, 0, read.stderr)
        guard case .array(let rows) = try JSONParser.parse(Data(read.stdout.utf8)) else { return XCTFail(read.stdout) }
        XCTAssertEqual(
            rows,
            [
                .array(["ip", "city", "asn.name", "error"].map(JSONValue.string)),
                .array(["8.8.8.8", hostile, hostile, ""].map(JSONValue.string)),
                .array(["1.1.1.1", hostile, hostile, ""].map(JSONValue.string)),
            ])
        let field = try ipdata(["8.8.8.8", "--field", "city"] + hostileBase)
        XCTAssertEqual(field.status, 0, field.stderr)
        XCTAssertEqual(field.stdoutBytes, Data((hostile + "\n").utf8))
        // Several addresses: one line each, whatever the answer holds.
        let several = try ipdata(["8.8.8.8", "1.1.1.1", "--field", "city", "-q"] + hostileBase)
        XCTAssertEqual(several.stdout.split(separator: "\n").count, 2, several.stdout)
        XCTAssertFalse(several.stdout.contains("\u{1B}"), several.stdout)
    }

    /// `enrich` adds the values to a log, a TSV file or (on a terminal) CSV written out, so that a
    /// line break in an answer cannot forge a line, and to a CSV file as the API's values.
    func testEnrichWritesTheValuesItAddsOut() throws {
        let log = try makeFile("GET / from 8.8.8.8\r\nGET / from 1.1.1.1\n", named: "access.log")
        let lines = try ipdata(["enrich", "-f", "city,asn.name", "-q", log.path] + hostileBase)
        XCTAssertEqual(lines.status, 0, lines.stderr)
        XCTAssertEqual(
            lines.stdout,
            "GET / from 8.8.8.8\r\n  ipdata 8.8.8.8: city=\(shown) asn.name=\(shown)\r\n"
                + "GET / from 1.1.1.1\n  ipdata 1.1.1.1: city=\(shown) asn.name=\(shown)\n")
        let tsv = try makeFile("ip\tnote\n8.8.8.8\tx\n", named: "hosts.tsv")
        let table = try ipdata(["enrich", "-f", "city", "-q", tsv.path] + hostileBase)
        XCTAssertEqual(table.status, 0, table.stderr)
        let tsvShown = shown.replacingOccurrences(of: #"\x0d\x0a"#, with: " ")
        XCTAssertEqual(table.stdout, "ip\tnote\tcity\tipdata_error\n8.8.8.8\tx\t\(tsvShown)\t\n")
        let csv = try makeFile("ip,note\n8.8.8.8,x\n", named: "hosts.csv")
        let onTerminal = try onTerminal(["enrich", "-f", "city", "-q", csv.path] + hostileBase)
        XCTAssertEqual(actedOn(onTerminal), [], onTerminal)
        XCTAssertEqual(onTerminal, "ip,note,city,ipdata_error\r\n8.8.8.8,x,\(shown),\r\n")
        let toFile = try ipdata(["enrich", "-f", "city", "-q", csv.path] + hostileBase)
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertEqual(toFile.stdout, "ip,note,city,ipdata_error\n8.8.8.8,x,\"\(hostile)\",\n")
    }
}
#endif
