// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// CSV output in which every row names its address.
final class CSVOutputTests: CommandLineTestCase {
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
        XCTAssertEqual(
            run.stdout, "{\"country_code\":\"US\",\"ip\":\"8.8.8.8\"}\n{\"country_code\":\"AU\",\"ip\":\"1.1.1.1\"}\n")
    }
}
#endif
