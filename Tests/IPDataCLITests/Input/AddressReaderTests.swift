// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// Reading addresses from files: lines, comments, CSV columns, line ends, large inputs.
final class AddressReaderTests: XCTestCase {
    private func read(_ inputs: [URL], column: ColumnSelection = .first) async throws -> [String] {
        var addresses: [String] = []
        for try await address in AddressReader(inputs: inputs.map(\.path), column: column) { addresses.append(address) }
        return addresses
    }

    private func read(_ text: String, column: ColumnSelection = .first) async throws -> [String] {
        try await read([makeFile(text)], column: column)
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

    func testAQuotedFieldMayHoldLineBreaks() async throws {
        let csv = "ip,note\n8.8.8.8,\"first line\nsecond line\"\n1.1.1.1,plain\n"
        let addresses = try await read(csv, column: .name("ip"))
        XCTAssertEqual(addresses, ["8.8.8.8", "1.1.1.1"])
    }

    func testARowWithoutTheColumnYieldsAnEmptyAddress() async throws {
        let addresses = try await read("a,8.8.8.8\nb\n", column: .index(1))
        XCTAssertEqual(addresses, ["8.8.8.8", ""])
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
        XCTAssertEqual(CSVRecord.fields(""), [""])
        XCTAssertTrue(CSVRecord.isOpen("a,\"b"))
        XCTAssertFalse(CSVRecord.isOpen("a,\"b\"\"c\""))
    }
}
#endif
