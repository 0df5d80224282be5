// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// CSV output that is safe to open in a spreadsheet, and in which every row names its address.
final class CSVOutputTests: CommandLineTestCase {
    func testAFormulaIsNeutralisedAndANegativeNumberKept() throws {
        let run = try ipdata(
            ["bulk", "--format", "csv", "-f", "ip,latitude"] + base, stdin: "1.1.1.1\n=1+2\n@SUM(A1)\n-2+3\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stdout,
            """
            ip,latitude,error
            1.1.1.1,-33.494,
            '=1+2,,Bad Request: =1+2 does not appear to be an IPv4 or IPv6 address
            '@SUM(A1),,Bad Request: @SUM(A1) does not appear to be an IPv4 or IPv6 address
            '-2+3,,Bad Request: -2+3 does not appear to be an IPv4 or IPv6 address

            """)
    }

    func testEveryRowNamesItsAddressWhenTheFieldsLeaveItOut() throws {
        let run = try ipdata(["bulk", "--format", "csv", "-f", "country_code"] + base, stdin: "8.8.8.8\n10.0.0.1\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stdout,
            """
            ip,country_code,error
            8.8.8.8,US,
            10.0.0.1,,Bad Request: 10.0.0.1 is a private IP address

            """)
    }

    func testAServerErrorRowNamesItsAddress() throws {
        // Every request to this path fails with HTTP 500 (the retries too).
        let failing = url + "/flaky/500/1000/\(UUID().uuidString)"
        let run = try ipdata(
            ["bulk", "--format", "csv", "-f", "country_code", "--base-url", failing], stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stdout, "ip,country_code,error\n8.8.8.8,,HTTP 500: flaky: 500\n1.1.1.1,,HTTP 500: flaky: 500\n")
    }

    func testEveryJSONLineNamesItsAddressToo() throws {
        let run = try ipdata(["8.8.8.8", "1.1.1.1", "-f", "country_code"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        // The address goes first, before the API's own bytes.
        XCTAssertEqual(
            run.stdout, "{\"ip\":\"8.8.8.8\",\"country_code\":\"US\"}\n{\"ip\":\"1.1.1.1\",\"country_code\":\"AU\"}\n")
    }
}
#endif
