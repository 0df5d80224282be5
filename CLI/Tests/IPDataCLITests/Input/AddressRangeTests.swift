// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// Ranges in `ipdata bulk`'s input: networks and dash ranges, expanded in order, capped.
final class AddressRangeTests: XCTestCase {
    func testRangesAndTheirSizes() {
        let table: [(String, [String]?, UInt64?, UInt)] = [
            ("8.8.8.0/30", ["8.8.8.0", "8.8.8.1", "8.8.8.2", "8.8.8.3"], 4, #line),
            ("8.8.8.8/32", ["8.8.8.8"], 1, #line),
            ("1.1.1.254-1.1.2.1", ["1.1.1.254", "1.1.1.255", "1.1.2.0", "1.1.2.1"], 4, #line),
            (" 1.1.1.1 - 1.1.1.1 ", ["1.1.1.1"], 1, #line),
            (
                "2001:db8::fffe-2001:db8::1:1", ["2001:db8::fffe", "2001:db8::ffff", "2001:db8::1:0", "2001:db8::1:1"],
                4, #line
            ),
            ("2001:db8::/126", ["2001:db8::", "2001:db8::1", "2001:db8::2", "2001:db8::3"], 4, #line),
            ("255.255.255.254/31", ["255.255.255.254", "255.255.255.255"], 2, #line),
            ("10.0.0.0/8", nil, 16_777_216, #line),
            ("0.0.0.0/0", nil, 4_294_967_296, #line),
            ("2001:db8::/64", nil, .max, #line),
            ("::-::1:0:0:0:0", nil, .max, #line),
            ("::-0:0:0:0:ffff:ffff:ffff:ffff", nil, .max, #line),
            ("::-0:0:0:0:ffff:ffff:ffff:fffe", nil, .max, #line),
        ]
        for (text, addresses, count, line) in table {
            let range = AddressRange(text)
            XCTAssertEqual(range?.count, count, text, line: line)
            if let addresses { XCTAssertEqual(range.map(Array.init), addresses, text, line: line) }
        }
        let notRanges = [
            "8.8.8.8", "8.8.8.9-8.8.8.8", "8.8.8.1-2001:db8::1", "8.8.8.0/33", "8.8.8.0/08", "1-2", "8.8.8.0/",
            "a-b", "8.8.8.1-8.8.8.2-8.8.8.3", "",
        ]
        for text in notRanges { XCTAssertNil(AddressRange(text), text) }
    }

    /// A network written with host bits set is read, and its problem names the network meant;
    /// nothing of it is looked up, whatever its size.
    func testANetworkWithHostBitsSetNamesTheNetwork() {
        let cases = [
            ("10.0.0.1/8", "10.0.0.0/8"), ("8.8.8.5/29", "8.8.8.0/29"), ("2001:db8::1/32", "2001:db8::/32"),
            ("192.0.2.255/31", "192.0.2.254/31"), ("0.0.0.1/0", "0.0.0.0/0"),
        ]
        for (written, network) in cases {
            XCTAssertEqual(
                AddressRange(written)?.problem(maximum: 1_000_000),
                "\(written) has host bits set: the network is \(network)", written)
        }
        XCTAssertNil(AddressRange("8.8.8.0/29")?.problem(maximum: 256))
    }

    func testTheCapNamesTheRangeAndItsSize() {
        XCTAssertNil(AddressRange("8.8.8.0/24")?.problem(maximum: 256))
        XCTAssertEqual(
            AddressRange("10.0.0.0/8")?.problem(maximum: 256),
            "10.0.0.0/8 holds 16,777,216 addresses, more than --max-addresses 256: nothing was looked up")
        XCTAssertEqual(
            AddressRange("2001:db8::/32")?.problem(maximum: 1_000_000),
            "2001:db8::/32 holds more than 18 quintillion addresses, more than --max-addresses 1,000,000: nothing "
                + "was looked up")
    }

    func testTheReaderExpandsRangesInOrderAndKeepsAnOriginForEach() async throws {
        let url = try makeFile("8.8.8.0/31\n1.1.1.1\n10.0.0.0/8\n9.9.9.9-9.9.9.10\n8.8.8.1\n")
        let ledger = InputLedger()
        var read: [(String, InputLedger.Origin?)] = []
        for try await address in AddressReader(inputs: [url.path], column: .first, ledger: ledger) {
            read.append((address, ledger.takeFirst()))
        }
        XCTAssertEqual(read.map(\.0), ["8.8.8.0", "8.8.8.1", "1.1.1.1", "10.0.0.0/8", "9.9.9.9", "9.9.9.10"])
        XCTAssertEqual(read.map { $0.1?.line }, [1, 1, 2, 3, 4, 4])
        XCTAssertEqual(read[3].1?.problem?.hasPrefix("10.0.0.0/8 holds 16,777,216 addresses"), true)
        // 8.8.8.1 on line 5 was read before (in the range of line 1): not sent again.
        let duplicate = ledger.takeFirst()
        XCTAssertEqual(duplicate?.line, 5)
        XCTAssertEqual(duplicate?.isDuplicate, true)
    }

    func testTheCapIsTheReadersToSet() async throws {
        let url = try makeFile("8.8.8.0/30\n")
        var reader = AddressReader(inputs: [url.path], column: .first)
        reader.maximumRangeAddresses = 2
        var read: [String] = []
        for try await address in reader { read.append(address) }
        XCTAssertEqual(read, ["8.8.8.0/30"])
    }
}
#endif
