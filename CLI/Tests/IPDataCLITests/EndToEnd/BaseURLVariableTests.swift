// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// `IPDATA_BASE_URL` says where requests go, as `IPDATA_API_KEY` gives the key: `--base-url`
/// and `--eu` come first, `--sandbox` sends nothing whatever it says, and a bad value is one
/// line and exit status 2, before any request.
final class BaseURLVariableTests: CommandLineTestCase {
    private func variable(_ value: String) -> [String: String] { [Configuration.baseURLVariable: value] }

    func testRequestsGoWhereTheVariableSays() throws {
        let mark = backendLogMark()
        let run = try ipdata(["8.8.8.8", "--field", "country_name"], extra: variable(url))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "United States\n")
        XCTAssertEqual(try sentAddresses(since: mark, requests: 1).addresses, ["8.8.8.8"])

        let bulk = try ipdata(["bulk", "-q", "-f", "ip"], stdin: "8.8.8.8\n1.1.1.1\n", extra: variable(url))
        XCTAssertEqual(bulk.status, 0, bulk.stderr)
        XCTAssertEqual(bulk.stdoutLines, [#"{"ip":"8.8.8.8"}"#, #"{"ip":"1.1.1.1"}"#])
    }

    func testVerboseSaysTheURLCameFromTheVariable() throws {
        let run = try ipdata(["8.8.8.8", "--field", "ip", "--verbose"], extra: variable(url))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderrLines.contains("ipdata: requests go to \(url) (from IPDATA_BASE_URL)"), run.stderr)
        let given = try ipdata(["8.8.8.8", "--field", "ip", "--verbose"] + base, extra: variable(url))
        XCTAssertFalse(given.stderr.contains("IPDATA_BASE_URL"), given.stderr)
    }

    func testTheOptionComesBeforeTheVariable() throws {
        // Nothing listens on port 1: the run succeeds only if --base-url wins.
        let run = try ipdata(["8.8.8.8", "--field", "country_name"] + base, extra: variable("https://127.0.0.1:1"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "United States\n")
    }

    func testTheSandboxSendsNothingWhateverTheVariableSays() throws {
        for value in [url, "not a url"] {
            let mark = backendLogMark()
            let run = try ipdata(
                ["--sandbox", "8.8.8.8", "--field", "country_name"], key: .absent, extra: variable(value))
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout, "United States\n")
            XCTAssertEqual(try sentAddresses(since: mark, requests: 0).requests, 0)
        }
    }

    func testABadValueIsOneLineAndExitStatusTwo() throws {
        let cases = [
            ("ftp://example.com", "must be an http or https URL"), ("not a url", "must be an http or https URL"),
            ("https://example.com/?q=1", "must be an http or https URL"),
            ("https://user:secret@example.com", "must be an http or https URL"),
            ("http://example.com", "with plain http would send the API key in clear text"),
        ]
        for (value, problem) in cases {
            let mark = backendLogMark()
            for arguments in [["8.8.8.8"], ["bulk", "-"], ["init", "some-key"]] {
                let run = try ipdata(arguments, stdin: "8.8.8.8\n", extra: variable(value))
                XCTAssertEqual(run.status, 2, "\(value) \(arguments): \(run.stderr)")
                XCTAssertEqual(run.stdout, "")
                XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
                XCTAssertTrue(
                    run.stderr.hasPrefix("ipdata: the environment variable IPDATA_BASE_URL \(problem)"), run.stderr)
                XCTAssertFalse(run.stderr.contains("secret"), "the value is not repeated: \(run.stderr)")
            }
            XCTAssertEqual(try sentAddresses(since: mark, requests: 0).requests, 0, value)
        }
    }

    func testInitChecksTheKeyWhereTheVariableSays() throws {
        let run = try ipdata(["init", key], key: .absent, extra: variable(url))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("Checked the API key and saved it"), run.stdout)
    }

    // MARK: The order, without a server

    private func endpoint(_ arguments: String...) throws -> EndpointOptions {
        try EndpointOptions.parse(arguments)
    }

    func testTheOrderIsOptionThenEUThenVariableThenTheGlobalEndpoint() throws {
        let gateway = variable("https://gateway.example/ipdata")
        XCTAssertEqual(
            try CommonOptions.baseURL(endpoint("--base-url", "https://other.example"), environment: gateway),
            URL(string: "https://other.example"))
        XCTAssertEqual(try CommonOptions.baseURL(endpoint("--eu"), environment: gateway), IPDataClient.euBaseURL)
        XCTAssertEqual(
            try CommonOptions.baseURL(endpoint(), environment: gateway), URL(string: "https://gateway.example/ipdata"))
        XCTAssertEqual(try CommonOptions.baseURL(endpoint(), environment: [:]), IPDataClient.defaultBaseURL)
        XCTAssertEqual(
            try CommonOptions.baseURL(endpoint(), environment: variable(" ")), IPDataClient.defaultBaseURL,
            "empty is unset")
        XCTAssertEqual(
            try CommonOptions.baseURL(endpoint(), environment: variable("http://localhost:8080")),
            URL(string: "http://localhost:8080"), "plain http to this machine")
    }
}
#endif
