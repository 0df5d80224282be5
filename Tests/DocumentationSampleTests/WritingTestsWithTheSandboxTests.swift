// The test samples of IPDataTesting.docc/WritingTestsWithTheSandbox.md, run as written; the
// rules they test are in AppRules.swift. The article's own copies are type-checked as printed by
// scripts/check-samples.sh.
import Foundation
import IPData
import IPDataTesting
import XCTest

/// The tests of "Writing Tests with the Sandbox", one section after another.
final class WritingTestsWithTheSandboxTests: XCTestCase {
    // MARK: - Make a sandbox for each test

    func testATorExitCannotSignUp() async throws {
        let client = IPDataSandbox().client()
        let allowed = try await signUpIsAllowed(from: IPDataScenario.torExit.ip!, client: client)
        XCTAssertFalse(allowed)
    }

    func testAResidentialVisitorCanSignUp() async throws {
        let client = IPDataSandbox().client()
        let allowed = try await signUpIsAllowed(from: IPDataScenario.residential.ip!, client: client)
        XCTAssertTrue(allowed)
    }

    // MARK: - Use the address scenarios

    func testSatelliteAndAnycastFlags() async throws {
        let client = IPDataSandbox().client()
        let satellite = try await client.lookup(IPDataScenario.satellite.ip!)
        let anycast = try await client.lookup(IPDataScenario.anycast.ip!)
        XCTAssertTrue(satellite.isSatellite)
        XCTAssertTrue(anycast.isAnycast)
        XCTAssertEqual(anycast.threat?.blocklists?.first?.firstSeen, "2026-09-02")
    }

    func testAnyOtherPublicAddressGetsTheResidentialSample() async throws {
        let info = try await IPDataSandbox().client().lookup("81.2.69.160")
        XCTAssertEqual(info.ip, "81.2.69.160")
        XCTAssertEqual(info.asn?.name, "Comcast Cable Communications, LLC")
    }

    func testAPrivateAddressCannotBeChecked() async throws {
        let client = IPDataSandbox().client()
        do {
            _ = try await client.lookup(IPDataScenario.privateIP.ip!)
            XCTFail("expected an error")
        } catch let error as IPDataError {
            guard case .badRequest("192.168.1.1 is a private IP address") = error else { return XCTFail("\(error)") }
        }
        let results = try await client.bulkLookup(["8.8.8.8", "10.0.0.1"])
        XCTAssertEqual(results[1].message, "10.0.0.1 is a private IP address")
    }

    // MARK: - Fail the way the API fails

    func testAnInvalidKeyIsAConfigurationProblem() async throws {
        let client = IPDataSandbox(failing: .invalidKey).client()
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("expected an error")
        } catch let error as IPDataError {
            XCTAssertEqual(userMessage(for: error), "Configuration problem")
            guard case .unauthorized("You have not provided a valid API Key.") = error else {
                return XCTFail("\(error)")
            }
        }
    }

    func testANetworkFailureLooksOffline() async throws {
        let client = IPDataSandbox(failing: .networkFailure).client()
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("expected an error")
        } catch let error as IPDataError {
            XCTAssertEqual(userMessage(for: error), "You appear to be offline")
            guard case .networkError(let underlying as URLError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(underlying.code, .notConnectedToInternet)
        }
    }

    func testAnUnknownASNIsNotFound() async throws {
        let client = IPDataSandbox(failing: .unknownASN).client()
        let known = try await client.lookupASN("AS15169")
        XCTAssertEqual(known.name, "Google LLC")
        do {
            _ = try await client.lookupASN(IPDataScenario.unknownASN.ip!)
            XCTFail("expected an error")
        } catch IPDataError.notFound(let message) {
            XCTAssertEqual(message, "AS4294967295 was not found.")
        }
    }

    // MARK: - Register your own answers

    func testATestCanRegisterItsOwnAnswerForAnyAddress() async throws {
        let sandbox = IPDataSandbox()
        sandbox.register(
            body: Data(#"{"ip": "203.0.113.9", "country_code": "JP", "threat": {"is_proxy": true}}"#.utf8),
            for: "203.0.113.9")
        let info = try await sandbox.client().lookup("203.0.113.9")
        XCTAssertEqual(info.countryCode, "JP")
        XCTAssertEqual(info.threat?.isProxy, true)
    }

    func testARateLimitIsReported() async throws {
        let sandbox = IPDataSandbox()
        sandbox.register(body: Data(#"{"message": "Too many requests."}"#.utf8), status: 429, for: "203.0.113.7")
        do {
            _ = try await sandbox.client().lookup("203.0.113.7")
            XCTFail("expected an error")
        } catch IPDataError.unexpectedStatus(let status, let message) {
            XCTAssertEqual(status, 429)
            XCTAssertEqual(message, "Too many requests.")
        }
    }

    // MARK: - Check what your code sent

    func testAnEUVisitorSeesTheCookieBanner() async throws {
        let sandbox = IPDataSandbox()
        let client = sandbox.client()
        let euBanner = try await needsCookieBanner(for: IPDataScenario.euIPv6.ip!, client: client)
        let usBanner = try await needsCookieBanner(for: IPDataScenario.residential.ip!, client: client)
        XCTAssertTrue(euBanner)
        XCTAssertFalse(usBanner)
        XCTAssertEqual(sandbox.requests.map(\.fields), [["is_eu"], ["is_eu"]], "the app asks only for is_eu")
    }

    func testRequestsAreRecorded() async throws {
        let sandbox = IPDataSandbox()
        let client = sandbox.client()
        _ = try await client.lookup()
        _ = try await client.lookupField("8.8.8.8", field: "country_name")
        _ = try await client.bulkLookup(["8.8.8.8", "1.1.1.1"], fields: ["ip"])
        XCTAssertEqual(sandbox.requests.map(\.path), ["/", "/8.8.8.8/country_name", "/bulk"])
        XCTAssertEqual(sandbox.requests.last?.bulkAddresses, ["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(sandbox.requests.last?.fields, ["ip"])
        sandbox.removeAllRequests()
        XCTAssertTrue(sandbox.requests.isEmpty)
    }

    func testARepeatedLookupComesFromTheCache() async throws {
        let sandbox = IPDataSandbox()
        let client = sandbox.client(cache: LookupCache())
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(sandbox.requests.count, 1)
    }

    // MARK: - Single fields

    func testAStringFieldIsPlainTextAndAnObjectFieldIsJSON() async throws {
        let client = IPDataSandbox().client()
        let country = try await client.lookupField("8.8.8.8", field: "country_name")
        let asn = try await client.lookupField("8.8.8.8", field: "asn")
        let isEU = try await client.lookupField("8.8.8.8", field: "is_eu")
        XCTAssertEqual(String(decoding: country, as: UTF8.self), "United States")
        XCTAssertEqual(try JSONDecoder().decode(ASN.self, from: asn).asn, "AS15169")
        XCTAssertEqual(String(decoding: isEU, as: UTF8.self), "false")
    }

    // MARK: - Streams and plans without bulk access

    func testWithoutBulkAccessAStreamFallsBackToSingleLookups() async throws {
        let sandbox = IPDataSandbox(failing: .bulkNotAllowed)
        let ips = IPDataScenario.addresses.compactMap(\.ip)
        let results = try await sandbox.client().lookupAll(ips)
        XCTAssertEqual(results.compactMap(\.response?.ip), ips)
        XCTAssertEqual(sandbox.requests.filter { $0.method == "GET" }.count, ips.count)
    }

    // MARK: - Parallel tests

    func testSandboxesAreIndependentAndSafeInParallel() async throws {
        let quiet = IPDataSandbox()
        let failing = IPDataSandbox(failing: .quotaExceeded)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { _ = try await quiet.client().lookup("8.8.8.\(index)") }
                group.addTask { _ = try? await failing.client().lookup("8.8.8.\(index)") }
            }
            try await group.waitForAll()
        }
        XCTAssertEqual(quiet.requests.count, 50)
        XCTAssertEqual(failing.requests.count, 50)
    }
}
