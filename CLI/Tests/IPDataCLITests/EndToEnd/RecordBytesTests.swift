// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// The same record has the same bytes whichever path wrote it: a single lookup, a bulk run, a
/// lookup of several addresses. JSON lines are compact, `--format json` is indented two spaces a
/// level, and neither changes a value: Python's `json` writes the same bytes from what it reads.
final class RecordBytesTests: CommandLineTestCase {
    /// Runs `python3 -c script` with `input` on standard input; skips the test without python3.
    private func python(_ script: String, input: String) throws -> String {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("needs python3 to check the output with an independent reader")
        }
        let run = try BuiltBinary.run(
            ["-c", script], executable: python, environment: ["PATH": "/usr/bin:/bin"], stdin: makeFile(input))
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    /// Addresses the test server answers from its template, by the same serializer for a lookup
    /// and for a bulk request.
    private let addresses = ["8.8.4.4", "2001:4860:4860::8888", "9.9.9.9"]

    func testJSONLinesAreTheSameBytesFromALookupABulkRunAndSeveralAddresses() throws {
        var single: [String] = []
        for address in addresses {
            let run = try ipdata([address, "--format", "jsonl"] + base)
            XCTAssertEqual(run.status, 0, run.stderr)
            single += run.stdoutLines
        }
        let bulk = try ipdata(["bulk", "-q"] + base, stdin: addresses.joined(separator: "\n") + "\n")
        XCTAssertEqual(bulk.status, 0, bulk.stderr)
        let several = try ipdata(addresses + ["-q"] + base)
        XCTAssertEqual(several.status, 0, several.stderr)
        XCTAssertEqual(single.count, addresses.count)
        XCTAssertEqual(bulk.stdoutLines, single)
        XCTAssertEqual(several.stdoutLines, single)
        XCTAssertEqual(bulk.stdoutLines.filter { $0.contains("\"is_threat\":false") }.count, addresses.count)
        // Python reads each line and writes it back, compact and in the same order, byte for byte.
        let rewritten = try python(
            """
            import json, sys
            for line in sys.stdin.read().splitlines():
                print(json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False))
            """, input: bulk.stdout)
        XCTAssertEqual(rewritten, bulk.stdout)
    }

    /// A lookup the server sends from a fixture file, indented and with `\u` escapes, is
    /// compacted without a value changed: the same values, in the same order, as its bulk record.
    func testAnAnswerSentIndentedIsCompactedWithoutChangingAValue() throws {
        let single = try ipdata(["8.8.8.8", "--format", "jsonl"] + base)
        XCTAssertEqual(single.status, 0, single.stderr)
        let bulk = try ipdata(["bulk", "-q"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(single.stdoutLines.count, 1)
        let compared = try python(
            """
            import json, sys
            single, bulk = sys.stdin.read().splitlines()
            a, b = json.loads(single), json.loads(bulk)
            assert a == b and list(a) == list(b), "values or key order differ"
            assert json.dumps(a, separators=(",", ":"), ensure_ascii=True) == single, "not compact"
            print(len(a))
            """, input: single.stdout + bulk.stdout)
        XCTAssertGreaterThan(Int(compared.trimmingCharacters(in: .newlines)) ?? 0, 20)
    }

    /// `--format json` is indented as Python's `json.dumps(indent=2)` writes it, for one result
    /// and for several.
    func testJSONIsIndentedTheSameForOneResultAndForSeveral() throws {
        let one = try ipdata([addresses[0], "--format", "json"] + base)
        XCTAssertEqual(one.status, 0, one.stderr)
        let several = try ipdata(addresses + ["--format", "json", "-q"] + base)
        XCTAssertEqual(several.status, 0, several.stderr)
        let indented = try python(
            """
            import json, sys
            for document in sys.stdin.read().split("\\n--\\n"):
                print(json.dumps(json.loads(document), indent=2, ensure_ascii=False))
                print("--")
            """, input: one.stdout + "--\n" + several.stdout)
        XCTAssertEqual(indented, one.stdout + "--\n" + several.stdout + "--\n")
    }
}
#endif
