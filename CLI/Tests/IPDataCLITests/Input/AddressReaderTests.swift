// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// Reading addresses from files: lines, comments, CSV columns, line ends, large inputs.
final class AddressReaderTests: XCTestCase {
    private func read(_ inputs: [URL], column: ColumnSelection = .first, csv: Bool = false) async throws -> [String] {
        try await readWithOrigins(inputs, column: column, csv: csv).map(\.address)
    }

    private func read(_ text: String, column: ColumnSelection = .first, csv: Bool = false) async throws -> [String] {
        try await read([makeFile(text)], column: column, csv: csv)
    }

    /// Each address with where the ledger says it came from.
    private func readWithOrigins(_ inputs: [URL], column: ColumnSelection = .first, csv: Bool = false) async throws
        -> [(address: String, origin: InputLedger.Origin?)]
    {
        let ledger = InputLedger()
        var read: [(String, InputLedger.Origin?)] = []
        for try await address in AddressReader(inputs: inputs.map(\.path), column: column, csv: csv, ledger: ledger) {
            read.append((address, ledger.takeFirst()))
        }
        XCTAssertNil(ledger.takeFirst(), "one origin per address")
        return read
    }

    func testOneAddressPerLine() async throws {
        let addresses = try await read("8.8.8.8\n1.1.1.1\n2001:db8::1\n")
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1", "2001:db8::1"])
    }

    func testBlankLinesAndCommentsAreSkipped() async throws {
        let addresses = try await read("# resolvers\n\n8.8.8.8\n   \n  # indented comment\n\t\n1.1.1.1")
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testSpacesAroundAnAddressAreTrimmed() async throws {
        let addresses = try await read("  8.8.8.8 \n\t1.1.1.1\t\n")
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testWindowsLineEndsAndAByteOrderMarkAreRemoved() async throws {
        let addresses = try await read("\u{FEFF}8.8.8.8\r\n1.1.1.1\r\n")
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testTheFirstCSVColumnIsTheDefault() async throws {
        let addresses = try await read("8.8.8.8,Google\n1.1.1.1,\"Cloudflare, Inc.\"\n")
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testAColumnByNumber() async throws {
        let addresses = try await read("Google,8.8.8.8\n\"Cloudflare, Inc.\", 1.1.1.1\n", column: .index(1))
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testAColumnByHeaderNameSkipsTheHeaderRow() async throws {
        let csv = "# export\nhost,IP_Address,owner\nweb,8.8.8.8,\"a \"\"quoted\"\" name\"\nmail,\"1.1.1.1\",x\n"
        let addresses = try await read(csv, column: .name("ip_address"))
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testInACSVFileAQuotedFieldMayHoldLineBreaks() async throws {
        let csv = "ip,note\n8.8.8.8,\"first line\nsecond line\"\n1.1.1.1,plain\n"
        let addresses = try await read(csv, column: .name("ip"), csv: true)
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testAStrayQuoteInAListSwallowsNothing() async throws {
        // A plain list is not CSV: the line with the quote is one address of its own, with its
        // problem named, and every later line is still read.
        let lines = ["\"8.8.8.8"] + (1...500).map { "9.9.\($0 / 256).\($0 % 256)" }
        let read = try await readWithOrigins([makeFile(lines.joined(separator: "\n"), named: "ips.txt")])
        XCTAssertEqual(read.map(\.address), lines)
        XCTAssertEqual(read[0].origin?.problem?.hasSuffix("ips.txt has an unbalanced quote"), true)
        XCTAssertEqual(read[0].origin?.line, 1)
        XCTAssertTrue(read.dropFirst().allSatisfy { $0.origin?.problem == nil })
        XCTAssertEqual(read.last?.origin?.line, 501)
    }

    func testInACSVFileAQuoteNeverClosedSwallowsAtMostTheLinesARecordMaySpan() async throws {
        let lines = ["ip,note", "8.8.8.8,\"never closed"] + (1...30).map { "9.9.9.\($0),x" }
        let read = try await readWithOrigins(
            [makeFile(lines.joined(separator: "\n"), named: "hosts.csv")], column: .name("ip"), csv: true)
        XCTAssertEqual(read.count, 31, "the opening line, then every later line read again")
        XCTAssertEqual(
            read[0].origin?.problem?.hasSuffix("line 2 of \(read[0].origin?.input ?? "") has an unbalanced quote"), true
        )
        XCTAssertEqual(read.dropFirst().map(\.address), (1...30).map { "9.9.9.\($0)" })
        XCTAssertEqual(read.dropFirst().map { $0.origin?.line }, (3...32).map { $0 })
    }

    func testARowWithoutTheColumnIsNamedAsSuch() async throws {
        let read = try await readWithOrigins([makeFile("a,8.8.8.8\nb\n")], column: .index(1))
        XCTAssertEqual(read.map(\.address), ["8.8.8.8", "b"])
        XCTAssertEqual(read[1].origin?.problem?.hasPrefix("line 2 of "), true)
        XCTAssertEqual(read[1].origin?.problem?.hasSuffix(" has no column 2"), true)
    }

    func testAColumnPastTheEndOfTheFirstRowIsAUsageError() async throws {
        let file = try makeFile("8.8.8.8,x\n1.1.1.1,y\n")
        do {
            _ = try await read([file], column: .index(4))
            XCTFail("no error")
        } catch let error as CommandError {
            XCTAssertEqual(error.status, .usage)
            XCTAssertEqual(error.message, "--column 5 is past the end of line 1 of \(file.path), which has 2 columns")
        }
    }

    func testAHeaderRowIsDetectedWithANumberedColumn() async throws {
        let withHeader = try await read("ip,country\n8.8.8.8,US\n1.1.1.1,AU\n")
        XCTAssertEqual(withHeader, ["8.8.8.8", "1.1.1.1"])
        let secondColumn = try await read("host,ip\nweb,8.8.8.8\n", column: .index(1))
        XCTAssertEqual(secondColumn, ["8.8.8.8"])
        // No header: a first row that holds an address, or a single word in a plain list.
        let noHeader = try await read("8.8.8.8,US\n1.1.1.1,AU\n")
        XCTAssertEqual(noHeader, ["8.8.8.8", "1.1.1.1"])
        let addressFirst = try await read("web,8.8.8.8\n", column: .index(1))
        XCTAssertEqual(addressFirst, ["8.8.8.8"])
        let plainList = try await read("localhost\n8.8.8.8\n")
        XCTAssertEqual(plainList, ["localhost", "8.8.8.8"])
    }

    func testTabSeparatedFilesWork() async throws {
        let named = try await read("host\tip\nweb\t8.8.8.8\ndns\t1.1.1.1\n", column: .name("ip"), csv: true)
        XCTAssertEqual(named, ["8.8.8.8", "1.1.1.1"])
        let numbered = try await read("web\t8.8.8.8\n", column: .index(1))
        XCTAssertEqual(numbered, ["8.8.8.8"])
    }

    func testAfterAStopTheReaderHandsOutNoMoreAndCountsWhatItLeft() async throws {
        let file = try makeFile((1...250).map { "9.9.\($0 / 256).\($0 % 256)" }.joined(separator: "\n") + "\n# end\n")
        let ledger = InputLedger()
        var iterator = AddressReader(inputs: [file.path], column: .first, ledger: ledger).makeAsyncIterator()
        for _ in 0..<100 { _ = try await iterator.next() }
        ledger.stop()
        let next = try await iterator.next()
        XCTAssertNil(next)
        XCTAssertEqual(ledger.unread, .counted(150))
    }

    func testAHeaderWithoutTheNamedColumnIsAUsageError() async throws {
        let file = try makeFile("host,address\nweb,8.8.8.8\n")
        do {
            _ = try await read([file], column: .name("ip"))
            XCTFail("no error")
        } catch let error as CommandError {
            XCTAssertEqual(error.status, .usage)
            XCTAssertEqual(error.message, "\(file.path) has no column named ip in its header row")
        }
    }

    func testFilesAreReadInOrderEachWithItsOwnHeader() async throws {
        let first = try makeFile("ip\n8.8.8.8\n", named: "a.csv")
        let second = try makeFile("name,ip\nx,1.1.1.1\ny,9.9.9.9", named: "b.csv")
        let addresses = try await read([first, second], column: .name("ip"))
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1", "9.9.9.9"])
    }

    func testAMissingFileIsAUsageError() async throws {
        do {
            _ = try await read([URL(fileURLWithPath: "/nonexistent/ips.txt")])
            XCTFail("no error")
        } catch let error as CommandError {
            XCTAssertEqual(error.status, .usage)
            XCTAssertTrue(error.message.hasPrefix("cannot read /nonexistent/ips.txt: "), error.message)
        }
    }

    func testLinesAcrossReadBlocksArriveWhole() async throws {
        // Long enough to need several reads, with lines that straddle block boundaries.
        let expected = (0..<20_000).map { "10.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
        XCTAssertGreaterThan(expected.joined(separator: "\n").utf8.count, 3 * LineReader.blockSize)
        let addresses = try await read(expected.joined(separator: "\n") + "\n")
        XCTAssertEqual(addresses, expected)
    }

    func testAnEmptyFileHasNoAddresses() async throws {
        let addresses = try await read("")
        XCTAssertEqual(addresses, [])
    }

    func testCSVRecordsAreSplitAsRFC4180Says() {
        XCTAssertEqual(CSVRecord.fields("a,b,,c"), ["a", "b", "", "c"])
        XCTAssertEqual(CSVRecord.fields(#""a,b","c""d",e"#), ["a,b", "c\"d", "e"])
        XCTAssertEqual(CSVRecord.fields("\"x\ny\""), ["x\ny"])
        XCTAssertEqual(CSVRecord.fields("a\t\"b\tc\"", separator: "\t"), ["a", "b\tc"])
        XCTAssertEqual(CSVRecord.fields(""), [""])
        XCTAssertTrue(CSVRecord.isOpen("a,\"b"))
        XCTAssertFalse(CSVRecord.isOpen("a,\"b\"\"c\""))
    }
}
#endif
