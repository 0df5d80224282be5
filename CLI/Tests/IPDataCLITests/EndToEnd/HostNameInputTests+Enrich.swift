// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

/// Host names in `ipdata enrich`'s address columns and keys: a row of a name gets the data of
/// its first address (the resolver's order) and names that address; a name that does not
/// resolve gets the resolver's message and sends nothing. Run as the other names tests are,
/// with a hosts file of their own (see `HostNameInputTests`).
extension HostNameInputTests {
    /// Thousands of CSV rows (a BOM, CRLF, quoted cells) with names, addresses, `.invalid` names,
    /// loopback and garbage in the `ip` column, read back with Python's csv module: every row
    /// kept as it was, in order; a name's row has the cells of its first address's row (`-f ip`
    /// shows which); each public address sent once, no name sent.
    func testEnrichLooksUpANameCellAsItsFirstAddress() throws {
        let first = try XCTUnwrap(try getent(Self.name).first)
        let loopback = try XCTUnwrap(try getent("localhost").first)
        let kinds = [
            Self.name, "WWW.Example.Test.", " www.example.test ", first, "8.8.8.8", "2001:4860:4860::8844",
            "nothing.example.invalid", "localhost", "hello", "",
        ]
        var generator = SeededGenerator(seed: 2607)
        let cells = (0..<3_000).map { _ in kinds.randomElement(using: &generator)! }
        let rows = cells.enumerated().map { "\($0.offset),\($0.element),\"a note, \($0.offset)\"" }
        let input = try makeFile("\u{FEFF}id,ip,note\r\n" + rows.joined(separator: "\r\n") + "\r\n", named: "hosts.csv")
        let mark = backendLogMark()
        let run = try withHosts(BuiltBinary.url.path, ["enrich", "-f", "ip,country_code", input.path] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("nothing.example.invalid: the name does not resolve ("), run.stderr)
        let output = try makeFile(run.stdout, named: "enriched.csv")
        XCTAssertTrue(run.stdout.hasPrefix("\u{FEFF}id,ip,note,ip,country_code,ipdata_error\r\n"), run.stdout)
        let read = try python(
            """
            import csv, sys
            rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8-sig')))
            for row in rows[1:]:
                print('|'.join(row))
            """, input: output)
        let lines = read.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(lines.count, cells.count)
        // The cells a row of the first address itself gets: those of every row of the name.
        let direct = try XCTUnwrap(cells.firstIndex(of: first).map { lines[$0] })
        let firstCells = direct.split(separator: "|", omittingEmptySubsequences: false).suffix(3).map(String.init)
        for (index, (cell, line)) in zip(cells, lines).enumerated() {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(Array(parts.prefix(3)), ["\(index)", cell, "a note, \(index)"], line)
            let added = Array(parts.dropFirst(3))
            let text = cell.trimmingCharacters(in: .whitespaces)
            if text.lowercased().hasPrefix("www.example.test") {
                XCTAssertEqual(added, firstCells, line)
                XCTAssertEqual(added.first, first, line)
            } else if text.hasSuffix(".invalid") {
                XCTAssertEqual(added.prefix(2), ["", ""], line)
                XCTAssertTrue(
                    added.last?.hasPrefix("nothing.example.invalid: the name does not resolve (") == true, line)
            } else if text == "localhost" {
                XCTAssertEqual(added.last, "Bad Request: \(loopback) is a private IP address", line)
            }
        }
        let sent = try sentAddresses(since: mark, requests: 1)
        XCTAssertEqual(
            sent.addresses.sorted(), Set([first, "8.8.8.8", "2001:4860:4860::8844"]).sorted(),
            "each public address once, no name")
    }

    /// JSON lines with a name under the key: the data under `ipdata` names the address used
    /// (`"ip"`), read back with Python's json module; an address's line has no such member, and
    /// a name that does not resolve gets the resolver's message as its error.
    func testEnrichNamesTheAddressOfANameOnAJSONLine() throws {
        let first = try XCTUnwrap(try getent(Self.name).first)
        let lines = [
            #"{"src":"www.example.test","n":1}"#, #"{"src":"8.8.8.8","n":2}"#,
            #"{"src":"x.example.invalid","n":3}"#, #"{"n":4,"src":"WWW.EXAMPLE.TEST"}"#,
        ]
        let mark = backendLogMark()
        let run = try withHosts(
            BuiltBinary.url.path, ["enrich", "--as", "jsonl", "--key", "src", "-f", "country_code", "-"] + base,
            stdin: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(run.status, 1, run.stderr)
        let output = try makeFile(run.stdout, named: "enriched.jsonl")
        let read = try python(
            """
            import json, sys
            for line in open(sys.argv[1]):
                o = json.loads(line)
                d = o['ipdata']
                print(o['n'], o['src'], d.get('ip', '-'), d.get('country_code', '-'), d.get('error', '-')[:40])
            """, input: output)
        let country = first == "1.1.1.1" ? "AU" : "US"
        XCTAssertEqual(
            read,
            """
            1 www.example.test \(first) \(country) -
            2 8.8.8.8 - US -
            3 x.example.invalid - - x.example.invalid: the name does not res
            4 WWW.EXAMPLE.TEST \(first) \(country) -

            """)
        let sent = try sentAddresses(since: mark, requests: 1)
        XCTAssertEqual(sent.addresses.sorted(), Set([first, "8.8.8.8"]).sorted())
    }

    /// Log lines: names are looked up only with `--names`, each under its line with the address
    /// used; without it a line's names are left alone.
    func testEnrichFindsNamesInLinesOnlyWithNames() throws {
        let first = try XCTUnwrap(try getent(Self.name).first)
        let log = "GET https://www.example.test/ from 8.8.8.8\r\nno names here\r\n"
        let named = try withHosts(
            BuiltBinary.url.path, ["enrich", "--names", "-f", "country_code", "-"] + base, stdin: log)
        XCTAssertEqual(named.status, 0, named.stderr)
        let country = first == "1.1.1.1" ? "AU" : "US"
        XCTAssertEqual(
            named.stdout,
            "GET https://www.example.test/ from 8.8.8.8\r\n  ipdata www.example.test (\(first)): country_code=\(country)"
                + "\r\n  ipdata 8.8.8.8: country_code=US\r\nno names here\r\n")
        let plain = try withHosts(BuiltBinary.url.path, ["enrich", "-f", "country_code", "-"] + base, stdin: log)
        XCTAssertEqual(
            plain.stdout,
            "GET https://www.example.test/ from 8.8.8.8\r\n  ipdata 8.8.8.8: country_code=US\r\nno names here\r\n")
    }
}
#endif
