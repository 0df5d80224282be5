// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// Reading records byte for byte: CSV records to their end as RFC 4180 and Python's `csv` module
/// read them, their line ends, and the limits.
final class RecordReaderTests: XCTestCase {
    private func records(_ bytes: [UInt8], separator: UInt8? = UInt8(ascii: ","), maximumLength: Int = 1_048_576)
        async throws -> [InputRecord]
    {
        let url = try makeTemporaryDirectory().appendingPathComponent("input.csv")
        try Data(bytes).write(to: url)
        let reader = RecordReader(
            lines: try LineReader.file(atPath: url.path), separator: separator, maximumLength: maximumLength)
        var records: [InputRecord] = []
        while let record = try await reader.next() { records.append(record) }
        return records
    }

    func testAQuotedFieldHoldsLineBreaksAndEveryByteIsKept() async throws {
        let input = Array("a,\"one\r\ntwo\n\"\"3\"\"\",b\r\nc,d\n\u{FEFF}e".utf8) + [0xFC]
        let read = try await records(input)
        XCTAssertEqual(
            read.map(\.bytes),
            [Array("a,\"one\r\ntwo\n\"\"3\"\"\",b".utf8), Array("c,d".utf8), Array("\u{FEFF}e".utf8) + [0xFC]])
        XCTAssertEqual(read.map(\.lineEnd), [.carriageReturnLineFeed, .lineFeed, .none])
        XCTAssertEqual(read.map(\.lineNumber), [1, 4, 5])
        XCTAssertEqual(
            CSVRecord.fields(read[0].bytes, separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) },
            ["a", "one\r\ntwo\n\"3\"", "b"])
    }

    func testAQuoteInsideAnUnquotedFieldIsAByteAsPythonReadsIt() async throws {
        // Python: list(csv.reader(['a,b"c,"d"e,f'])) == [['a', 'b"c', 'de', 'f']]
        let read = try await records(Array("a,b\"c,\"d\"e,f\nnext\n".utf8))
        XCTAssertEqual(read.count, 2)
        XCTAssertEqual(
            CSVRecord.fields(read[0].bytes, separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) },
            ["a", "b\"c", "de", "f"])
    }

    func testLinesAreRecordsWhenThereIsNoSeparator() async throws {
        let read = try await records(Array("a \"b\nc\r\n".utf8), separator: nil)
        XCTAssertEqual(read.map(\.bytes), [Array("a \"b".utf8), Array("c".utf8)])
    }

    func testARecordLongerThanTheLimitNamesTheLineItStartsOn() async throws {
        let input =
            Array("ip\n1.1.1.1,\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 60) + Array("\n".utf8)
            + Array(repeating: UInt8(ascii: "y"), count: 60) + Array("\"\n".utf8)
        do {
            _ = try await records(input, maximumLength: 100)
            XCTFail("a record of 132 bytes was read")
        } catch let error as CommandError {
            XCTAssertEqual(error.status, .usage)
            XCTAssertTrue(
                error.message.hasPrefix("line 2 of ")
                    && error.message.contains(
                        "starts a record longer than 100 bytes, the most enrich reads; the quoted field that opens on line 2"
                    ),
                error.message)
        }
    }

    func testAQuoteNeverClosedNamesItsLine() async throws {
        do {
            _ = try await records(Array("ip\n1.1.1.1,x\n2.2.2.2,\"open\n3.3.3.3,y\n".utf8))
            XCTFail("an unbalanced quote was read")
        } catch let error as CommandError {
            XCTAssertEqual(error.status, .usage)
            XCTAssertTrue(error.message.hasPrefix("line 3 of "), error.message)
            XCTAssertTrue(
                error.message.hasSuffix("has an unbalanced quote: its quoted field runs to the end of the input"))
        }
    }
}
#endif
