import Foundation
import IPData
import IPDataTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// An app's own rules, as an app would write them; the tests below check them with the sandbox.

/// Refuses sign-ups from anonymising networks.
func signUpIsAllowed(from ip: String, client: IPDataClient) async throws -> Bool {
    let info = try await client.lookup(ip)
    let threat = info.threat
    return !(threat?.isTor ?? false) && !(threat?.isVPN ?? false) && !(threat?.isThreat ?? false)
}

/// Shows the cookie banner to visitors in the EU.
func needsCookieBanner(for ip: String, client: IPDataClient) async throws -> Bool {
    try await client.lookup(ip, fields: ["is_eu"]).isEU ?? false
}

/// What the app tells the user when the lookup fails.
func userMessage(for error: IPDataError) -> String {
    switch error {
    case .unauthorized: return "Configuration problem"
    case .forbidden: return "Service limit reached, try later"
    case .networkError: return "You appear to be offline"
    case .badRequest, .notFound: return "That address cannot be checked"
    case .unexpectedStatus, .decodingFailed: return "Something went wrong"
    }
}

/// The kit in use, scenario by scenario, through the public API only.
final class AppScenarioTests: XCTestCase {
    func testATorExitCannotSignUp() async throws {
        let client = IPDataSandbox().client()
        let allowed = try await signUpIsAllowed(from: IPDataScenario.torExit.ip!, client: client)
        XCTAssertFalse(allowed)
    }

    func testAVPNCannotSignUp() async throws {
        let client = IPDataSandbox().client()
        let allowed = try await signUpIsAllowed(from: IPDataScenario.vpn.ip!, client: client)
        XCTAssertFalse(allowed)
    }

    func testAResidentialVisitorCanSignUp() async throws {
        let client = IPDataSandbox().client()
        let allowed = try await signUpIsAllowed(from: IPDataScenario.residential.ip!, client: client)
        XCTAssertTrue(allowed)
    }

    func testADatacenterAddressIsFlagged() async throws {
        let info = try await IPDataSandbox().client().lookup(IPDataScenario.datacenter.ip!)
        XCTAssertEqual(info.threat?.isDatacenter, true)
    }

    func testAnEUVisitorSeesTheCookieBanner() async throws {
        let sandbox = IPDataSandbox()
        let client = sandbox.client()
        let euBanner = try await needsCookieBanner(for: IPDataScenario.euIPv6.ip!, client: client)
        let usBanner = try await needsCookieBanner(for: IPDataScenario.residential.ip!, client: client)
        XCTAssertTrue(euBanner)
        XCTAssertFalse(usBanner)
        XCTAssertEqual(sandbox.requests.map(\.fields), [["is_eu"], ["is_eu"]], "the app asks only for is_eu")
    }

    func testSatelliteAndAnycastFlags() async throws {
        let client = IPDataSandbox().client()
        let satellite = try await client.lookup(IPDataScenario.satellite.ip!)
        let anycast = try await client.lookup(IPDataScenario.anycast.ip!)
        XCTAssertTrue(satellite.isSatellite)
        XCTAssertTrue(anycast.isAnycast)
        XCTAssertEqual(anycast.threat?.blocklists?.first?.firstSeen, "2026-09-02")
    }

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

    func testAnExhaustedQuotaAsksTheUserToWait() async throws {
        let client = IPDataSandbox(failing: .quotaExceeded).client()
        do {
            _ = try await client.lookup("8.8.8.8")
            XCTFail("expected an error")
        } catch let error as IPDataError {
            XCTAssertEqual(userMessage(for: error), "Service limit reached, try later")
        }
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

    func testWithoutBulkAccessAStreamFallsBackToSingleLookups() async throws {
        let sandbox = IPDataSandbox(failing: .bulkNotAllowed)
        let ips = IPDataScenario.addresses.compactMap(\.ip)
        let results = try await sandbox.client().lookupAll(ips)
        XCTAssertEqual(results.compactMap(\.response?.ip), ips)
        XCTAssertEqual(sandbox.requests.filter { $0.method == "GET" }.count, ips.count)
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

    func testATestCanRegisterItsOwnAnswerForAnyAddress() async throws {
        let sandbox = IPDataSandbox()
        sandbox.register(
            body: Data(#"{"ip": "203.0.113.9", "country_code": "JP", "threat": {"is_proxy": true}}"#.utf8),
            for: "203.0.113.9")
        let info = try await sandbox.client().lookup("203.0.113.9")
        XCTAssertEqual(info.countryCode, "JP")
        XCTAssertEqual(info.threat?.isProxy, true)
    }

    func testAnyOtherPublicAddressGetsTheResidentialSample() async throws {
        let info = try await IPDataSandbox().client().lookup("81.2.69.160")
        XCTAssertEqual(info.ip, "81.2.69.160")
        XCTAssertEqual(info.asn?.name, "Comcast Cable Communications, LLC")
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

    func testAStringFieldIsPlainTextAndAnObjectFieldIsJSON() async throws {
        let client = IPDataSandbox().client()
        let country = try await client.lookupField("8.8.8.8", field: "country_name")
        let asn = try await client.lookupField("8.8.8.8", field: "asn")
        let isEU = try await client.lookupField("8.8.8.8", field: "is_eu")
        XCTAssertEqual(String(decoding: country, as: UTF8.self), "United States")
        XCTAssertEqual(try JSONDecoder().decode(ASN.self, from: asn).asn, "AS15169")
        XCTAssertEqual(String(decoding: isEU, as: UTF8.self), "false")
    }

    func testTheJSONTheSandboxWritesHasItsKeysSorted() async throws {
        let sandbox = IPDataSandbox()
        let asn = try await sandbox.client().lookupField("8.8.8.8", field: "asn")
        let selected = try await sandbox.data(
            for: URLRequest(url: URL(string: "https://api.ipdata.co/8.8.8.8?fields=ip,city,asn")!)
        ).0
        let asnText =
            #"{"asn":"AS15169","domain":"google.com","name":"Google LLC","route":"8.8.8.0/24","type":"hosting"}"#
        XCTAssertEqual(String(decoding: asn, as: UTF8.self), asnText)
        XCTAssertEqual(
            String(decoding: selected, as: UTF8.self),
            #"{"asn":"# + asnText + #","city":"Mountain View","ip":"8.8.8.8"}"#)
    }

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

    func testEveryScenarioIsNamedAndTheAddressSamplesDecode() async throws {
        XCTAssertEqual(IPDataScenario.addresses.count, 7)
        XCTAssertEqual(IPDataScenario.errors.count, 6)
        let client = IPDataSandbox().client()
        for scenario in IPDataScenario.addresses {
            let info = try await client.lookup(scenario.ip!)
            XCTAssertEqual(info.ip, scenario.ip, scenario.name)
            XCTAssertNotNil(info.countryCode, scenario.name)
        }
    }
}
