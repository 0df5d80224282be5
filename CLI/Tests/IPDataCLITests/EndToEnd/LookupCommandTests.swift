// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// `ipdata`, `ipdata IP…`, `ipdata AS…` and `--field`, run as a user would, against the local server.
final class LookupCommandTests: CommandLineTestCase {
    func testNoArgumentLooksUpTheOwnAddress() throws {
        let run = try ipdata(base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let result = try object(run.stdout)
        XCTAssertEqual(result["ip"], .string("8.8.8.8"))
        XCTAssertTrue(run.stdout.hasPrefix("{\n  \""), "pretty JSON")
    }

    func testOneAddressIsOnePrettyJSONObject() throws {
        let run = try ipdata(["1.1.1.1"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let result = try object(run.stdout)
        XCTAssertEqual(result["ip"], .string("1.1.1.1"))
        XCTAssertEqual(result["country_code"], .string("AU"))
        XCTAssertEqual(result.value(at: "asn.name"), .string("Cloudflare, Inc."))
    }

    func testSeveralAddressesAreJSONLinesInOrderFromOneBulkRequest() throws {
        let mark = accessLogMark()
        let run = try ipdata(["8.8.8.8", "1.1.1.1", "2001:4860:4860::8844"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(
            try objects(run).map { $0["ip"] }, ["8.8.8.8", "1.1.1.1", "2001:4860:4860::8844"].map(JSONValue.string))
        let requests = try accessEntries(since: mark, atLeast: 1)
        XCTAssertEqual(requests.map(\.uri), ["/bulk"])
    }

    /// `ipdata < ips.txt`: the addresses of standard input go through the same bulk requests as
    /// addresses given as arguments.
    func testAFileOnStandardInputIsLookedUpLikeArguments() throws {
        let mark = accessLogMark()
        let run = try ipdata(base, stdin: "8.8.8.8\n# resolvers\n\n1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(try objects(run).map { $0["ip"] }, ["8.8.8.8", "1.1.1.1"].map(JSONValue.string))
        XCTAssertEqual(try accessEntries(since: mark, atLeast: 1).map(\.uri), ["/bulk"])
    }

    /// `cat ips.txt | ipdata`, through a shell, since `ipdata(…)` gives the binary a file or
    /// /dev/null (which is no pipe: there `ipdata` looks up the own address, see above).
    func testAPipeOnStandardInputIsLookedUpLikeArguments() throws {
        _ = try ipdata(["--version"])  // skips, or fails, when there is no binary
        let run = try BuiltBinary.run(
            ["-c", #"printf '8.8.8.8\n10.0.0.1\n1.1.1.1\n' | "$IPDATA_BINARY" --base-url "$IPDATA_BASE_URL""#],
            executable: URL(fileURLWithPath: "/bin/sh"),
            environment: childEnvironment(
                key: key, extra: ["IPDATA_BINARY": BuiltBinary.url.path, "IPDATA_BASE_URL": url]))
        XCTAssertEqual(run.status, 1, "10.0.0.1 is private: an error record")
        XCTAssertEqual(run.stderr, "")
        let records = try objects(run)
        XCTAssertEqual(records.map { $0["ip"] }, ["8.8.8.8", "10.0.0.1", "1.1.1.1"].map(JSONValue.string))
        XCTAssertEqual(records[1]["error"], .string("Bad Request: 10.0.0.1 is a private IP address"))
    }

    func testFieldOfEachAddressOnStandardInput() throws {
        let run = try ipdata(["--field", "country_code"] + base, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "8.8.8.8\tUS\n1.1.1.1\tAU\n")
    }

    func testAnASNPrintsItsDetail() throws {
        let run = try ipdata(["AS15169"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        let detail = try object(run.stdout)
        XCTAssertEqual(detail["asn"], .string("AS15169"))
        XCTAssertEqual(detail["name"], .string("Google LLC"))
    }

    func testFieldPrintsATextFieldAsTheAPIReturnsIt() throws {
        let run = try ipdata(["8.8.8.8", "--field", "country_name"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "United States\n")
    }

    func testFieldPrintsAnObjectFieldAsJSON() throws {
        let run = try ipdata(["8.8.8.8", "--field", "asn"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try object(run.stdout)["name"], .string("Google LLC"))
    }

    func testFieldFollowsADottedPath() throws {
        let run = try ipdata(["8.8.8.8", "1.1.1.1", "--field=asn.name"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "8.8.8.8\tGoogle LLC\n1.1.1.1\tCloudflare, Inc.\n")
    }

    func testFieldOfSeveralAddressesGivesEachItsLineInInputOrderFailuresToo() throws {
        let run = try ipdata(["8.8.8.8", "10.0.0.1", "nope", "1.1.1.1", "--field", "country_code"] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.stdout,
            """
            8.8.8.8\tUS
            10.0.0.1\t\tBad Request: 10.0.0.1 is a private IP address
            nope\t\tBad Request: nope does not appear to be an IPv4 or IPv6 address
            1.1.1.1\tAU

            """)
        XCTAssertEqual(run.stderr, "")
    }

    func testFieldOfSeveralAddressesPutsAnObjectOnOneLine() throws {
        let run = try ipdata(["8.8.8.8", "1.1.1.1", "--field", "asn"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        guard run.stdoutLines.count == 2 else { return XCTFail("two lines: \(run.stdout)") }
        let fields = run.stdoutLines[1].split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 2 else { return XCTFail("address, tab, value: \(run.stdout)") }
        XCTAssertEqual(fields[0], "1.1.1.1")
        XCTAssertEqual(try object(fields[1])["name"], .string("Cloudflare, Inc."))
    }

    // Several addresses' requests: see FieldListTests (bulk requests of the distinct addresses).

    /// `tail -f log | ipdata --field …`: a line is written as soon as its answer is in, while the
    /// input waits for more. The writer of the input sends its second address only once the
    /// first line is out (or says it gave up, after 5 s).
    func testFieldWritesEachLineWhileTheInputWaits() throws {
        _ = try ipdata(["--version"])  // skips, or fails, when there is no binary
        let output = home.appendingPathComponent("out.txt")
        let script = #"""
            ( echo 8.8.8.8; i=0
              while [ ! -s "$OUT" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
              [ -s "$OUT" ] || echo "no line while the input waited" >&2
              echo 1.1.1.1 ) | "$IPDATA_BINARY" --field country_code --base-url "$IPDATA_BASE_URL" > "$OUT"
            """#
        let run = try BuiltBinary.run(
            ["-c", script], executable: URL(fileURLWithPath: "/bin/sh"),
            environment: childEnvironment(
                key: key,
                extra: ["IPDATA_BINARY": BuiltBinary.url.path, "IPDATA_BASE_URL": url, "OUT": output.path]))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "8.8.8.8\tUS\n1.1.1.1\tAU\n")
    }

    /// The answers are slower than the input: the line over 1 MiB is read while the three
    /// requests before it are in flight, and their lines are written all the same.
    func testFieldWritesTheAddressesBeforeALineItCannotRead() throws {
        let input = "8.8.8.8\n1.1.1.1\n9.9.9.9\n" + String(repeating: "a", count: 1_048_577) + "\n8.8.4.4\n"
        let run = try ipdata(["--field", "ip", "--base-url", url + "/delay/0.3"], stdin: input)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stdout, "8.8.8.8\t8.8.8.8\n1.1.1.1\t1.1.1.1\n9.9.9.9\t9.9.9.9\n")
        XCTAssertEqual(
            run.stderrLines,
            ["ipdata: line 4 of standard input is longer than 1 MiB: expected one address or CSV row per line"])
    }

    func testFieldStopsAtARefusedKey() throws {
        let run = try ipdata(
            ["--field", "country_code"] + base, key: .given("not-a-key"), stdin: "8.8.8.8\n1.1.1.1\n9.9.9.9\n")
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: Unauthorized: "), run.stderr)
    }

    func testFieldStopsAtAnExhaustedQuota() throws {
        let quotaKey = server["IPDATA_TEST_QUOTA_KEY"] ?? "quota-key"
        let run = try ipdata(["8.8.8.8", "1.1.1.1", "--field", "country_code"] + base, key: .given(quotaKey))
        XCTAssertEqual(run.status, 4)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: Forbidden: "), run.stderr)
    }

    func testFieldOfTheOwnAddress() throws {
        let run = try ipdata(["--field", "ip"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "8.8.8.8\n")
    }

    func testFieldOfAnASN() throws {
        let run = try ipdata(["AS15169", "--field", "name"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "Google LLC\n")
    }

    func testFieldsAreSentAndDottedPathsBecomeCSVColumns() throws {
        let mark = accessLogMark()
        let run = try ipdata(["1.1.1.1", "-f", "ip,asn.name,threat.is_tor", "--format", "csv"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "ip,asn.name,threat.is_tor\n1.1.1.1,\"Cloudflare, Inc.\",false\n")
        let request = try XCTUnwrap(accessEntries(since: mark, atLeast: 1).first)
        XCTAssertEqual(request.uri, "/1.1.1.1")
    }

    /// The API answers a field name it does not know with nothing, so a typo would print `{}`:
    /// it is a usage error instead, naming the field meant, and nothing is sent.
    func testAnUnknownFieldIsAUsageErrorAndNothingIsSent() throws {
        let cases: [([String], String)] = [
            (["8.8.8.8", "-f", "contry_code"], "--fields: unknown field contry_code: did you mean country_code?"),
            (
                ["8.8.8.8", "-f", "ip", "-f", "contry_code"],
                "--fields: unknown field contry_code: did you mean country_code?"
            ),
            (
                ["8.8.8.8", "1.1.1.1", "-f", "ip,foo"],
                "--fields: unknown field foo: the fields are "
                    + (IPResponse.fieldNames + ["error"]).joined(separator: ", ")
            ),
            (["AS15169", "-f", "asn,nmae"], "--fields: unknown field nmae: did you mean name?"),
            (["8.8.8.8", "--field", "contry_code"], "--field: unknown field contry_code: did you mean country_code?"),
        ]
        for (arguments, message) in cases {
            let mark = accessLogMark()
            let run = try ipdata(arguments + base)
            XCTAssertEqual(run.status, 2, arguments.joined(separator: " "))
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderrLines, ["ipdata: \(message) (see ipdata --help)"])
            Thread.sleep(forTimeInterval: 0.2)
            XCTAssertEqual(try accessEntries(since: mark, atLeast: 0).count, 0, "nothing is sent")
        }
    }

    func testTheFieldsOfAnASNAreTheASNDetails() throws {
        let run = try ipdata(["AS15169", "-f", "asn,registry"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(Set(try object(run.stdout).keys), ["asn", "registry"])
    }

    func testFieldsKeepWholeTopLevelObjectsInJSON() throws {
        let run = try ipdata(["8.8.8.8", "--fields", "ip,asn.name"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        let result = try object(run.stdout)
        XCTAssertEqual(Set(result.keys), ["ip", "asn"])
        XCTAssertEqual(result.value(at: "asn.domain"), .string("google.com"))
    }

    func testATable() throws {
        let run = try ipdata(["8.8.8.8", "1.1.1.1", "--format", "table", "-f", "ip,country_code,asn.name"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout,
            """
            ip       country_code  asn.name
            8.8.8.8  US            Google LLC
            1.1.1.1  AU            Cloudflare, Inc.

            """)
    }

    func testSeveralAddressesAsAJSONArray() throws {
        let run = try ipdata(["8.8.8.8", "1.1.1.1", "--format", "json", "-f", "ip"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            try JSONParser.parse(Data(run.stdout.utf8)),
            .array([.object(["ip": .string("8.8.8.8")]), .object(["ip": .string("1.1.1.1")])]))
    }

    func testOutputGoesToTheFileNamed() throws {
        let file = home.appendingPathComponent("out.json")
        let run = try ipdata(["1.1.1.1", "--output", file.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(try object(String(contentsOf: file, encoding: .utf8))["ip"], .string("1.1.1.1"))
    }

    func testARejectedAddressFailsWithOneLine() throws {
        let run = try ipdata(["10.0.0.1"] + base)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines, ["ipdata: Bad Request: 10.0.0.1 is a private IP address"])
    }

    func testAmongSeveralARejectedAddressIsAnErrorRecordAndTheExitStatusIsOne() throws {
        let run = try ipdata(["8.8.8.8", "10.0.0.1", "not-an-ip"] + base)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "")
        let results = try objects(run)
        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(results[0]["ip"], .string("8.8.8.8"))
        XCTAssertNil(results[0]["error"])
        XCTAssertEqual(
            results[1], ["ip": .string("10.0.0.1"), "error": .string("Bad Request: 10.0.0.1 is a private IP address")])
        XCTAssertEqual(
            results[2],
            [
                "ip": .string("not-an-ip"),
                "error": .string("Bad Request: not-an-ip does not appear to be an IPv4 or IPv6 address"),
            ])
    }

    func testAnUnknownASNFailsWithOneLine() throws {
        let run = try ipdata(["AS999999"] + base)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderrLines, ["ipdata: Not Found: AS999999 was not found."])
    }

    func testABadKeyFailsWithOneLine() throws {
        let run = try ipdata(["8.8.8.8"] + base, key: .given("not-a-key"))
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: Unauthorized: You have not provided a valid API Key. "
                    + "(the key came from IPDATA_API_KEY: check it, or unset it and run `ipdata init`)"
            ])
    }

    func testABadKeyStopsSeveralLookupsAtOnce() throws {
        let run = try ipdata(["8.8.8.8", "1.1.1.1"] + base, key: .given("not-a-key"))
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: Unauthorized: "), run.stderr)
    }

    func testAnExhaustedQuotaFailsWithTheAPIsMessage() throws {
        let run = try ipdata(["8.8.8.8"] + base, key: .given(server["IPDATA_TEST_QUOTA_KEY"] ?? "quota-key"))
        XCTAssertEqual(run.status, 4)
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: Forbidden: You have exceeded your free quota. Upgrade to a paid plan to re-activate your account."
            ])
    }

    func testAFreePlanLooksUpSeveralAddressesOneByOneAndSaysSoOnce() throws {
        let addresses = (1...5).map { "9.9.9.\($0)" }
        let run = try ipdata(addresses + base, key: .given(server["IPDATA_TEST_FREE_KEY"] ?? "free-key"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try objects(run).map { $0["ip"] }, addresses.map(JSONValue.string))
        XCTAssertEqual(
            run.stderrLines,
            ["ipdata: this API key's plan does not allow bulk requests: continuing with single lookups"])
    }

    func testAServerThatCannotBeReachedIsANetworkError() throws {
        let run = try ipdata(["8.8.8.8", "--base-url", "https://127.0.0.1:9"])
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: Network error: "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix(" (URLError -1004)\n"), run.stderr)
        XCTAssertFalse(run.stderr.contains("UserInfo"), "the reason, not the NSError dump: \(run.stderr)")
    }

    func testAnAuthenticationChallengeIsRefusedAtOnce() throws {
        // A gateway that answers 401 with WWW-Authenticate: the tool's own session refuses it.
        let start = Date()
        let run = try ipdata(["8.8.8.8", "--base-url", server["IPDATA_TEST_URL_BASIC_AUTH"] ?? ""])
        XCTAssertEqual(run.status, 3)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: Unauthorized: "), run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }
}
#endif
