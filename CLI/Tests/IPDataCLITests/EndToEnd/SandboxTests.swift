// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPDataTesting
import XCTest

@testable import ipdata_cli

/// `ipdata --sandbox`: sample answers with no key and no network; never chosen by itself.
final class SandboxTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    func testASandboxLookupNeedsNoKeyAndSaysItIsNotLive() throws {
        let run = try ipdata(["--sandbox", "185.220.101.1"], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "ipdata: sandbox: sample data, not live\n")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["ip"] as? String, "185.220.101.1")
        XCTAssertEqual((object["threat"] as? [String: Any])?["is_tor"] as? Bool, true)
    }

    func testSandboxBulkAnswersEveryAddressInOrder() throws {
        let run = try ipdata(
            ["--sandbox", "bulk", "--format", "csv", "-f", "ip,country_code"], key: .absent,
            stdin: "8.8.8.8\n192.168.1.1\n2a02:8070:a182:c100::1\n")
        XCTAssertEqual(run.status, 1, "a private address is a failed record")
        XCTAssertEqual(
            run.stdout,
            "ip,country_code,error\n8.8.8.8,US,\n192.168.1.1,,Bad Request: 192.168.1.1 is a private IP address\n"
                + "2a02:8070:a182:c100::1,DE,\n")
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: sandbox: sample data, not live\n"), run.stderr)
    }

    func testAnObjectFieldIsTheSameBytesInEveryRun() throws {
        for _ in 0..<2 {
            let run = try ipdata(["--sandbox", "8.8.8.8", "--field", "asn"], key: .absent)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(
                run.stdout,
                #"{"asn":"AS15169","domain":"google.com","name":"Google LLC","route":"8.8.8.0/24","type":"hosting"}"#
                    + "\n")
        }
    }

    func testHelpListsTheSampleAddresses() throws {
        let run = try ipdata(["--help"], key: .absent)
        XCTAssertEqual(run.status, 0)
        for scenario in IPDataScenario.addresses {
            let ip = try XCTUnwrap(scenario.ip)
            XCTAssertTrue(
                run.stdoutLines.contains { $0.hasPrefix("  \(ip) ") && $0.hasSuffix("  \(scenario.name)") },
                "\(scenario.name) in \(run.stdout)")
        }
        XCTAssertTrue(run.stdout.contains("AS15169"))
    }

    func testDocumentationAndSharedAddressRangesAreNotPublic() throws {
        let run = try ipdata(
            ["bulk", "--sandbox", "-f", "ip"], key: .absent,
            stdin: "192.0.2.1\n198.51.100.7\n203.0.113.9\n2001:db8::1\n100.64.0.1\n8.8.8.8\n")
        XCTAssertEqual(run.status, 1, run.stderr)
        let errors = try objects(run).map { $0["error"] }
        XCTAssertEqual(
            errors,
            [
                "Bad Request: 192.0.2.1 is a private IP address", "Bad Request: 198.51.100.7 is a private IP address",
                "Bad Request: 203.0.113.9 is a private IP address", "Bad Request: 2001:db8::1 is a private IP address",
                "Bad Request: 100.64.0.1 is a reserved IP address.", nil,
            ].map { $0.map(JSONValue.string) })
    }

    func testWithoutTheFlagThereIsNoSandbox() throws {
        let run = try ipdata(["8.8.8.8"], key: .absent)
        XCTAssertEqual(run.status, 2, "no key: a configuration error, not sample data")
        XCTAssertEqual(run.stdout, "")
        XCTAssertFalse(run.stderr.contains("sandbox"), run.stderr)
    }

    func testTheSandboxCannotBeCombinedWithARealEndpoint() throws {
        for endpoint in [["--eu"], ["--base-url", "https://127.0.0.1:9"]] {
            let run = try ipdata(["--sandbox", "8.8.8.8"] + endpoint, key: .absent)
            XCTAssertEqual(run.status, 2, "\(endpoint)")
            XCTAssertTrue(run.stderr.contains("--sandbox answers from sample data"), run.stderr)
        }
    }
}
#endif
