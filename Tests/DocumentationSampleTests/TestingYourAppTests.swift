// The test samples of IPData.docc/TestingYourApp.md, run as written against the `signUpIsAllowed`
// and `signInPlace` of AppRules.swift (the article's own copies are type-checked by scripts/check-samples.sh).
import IPData
import IPDataTesting
import XCTest

/// The sign-up rule, against a Tor exit and an exhausted quota.
final class SignUpTests: XCTestCase {
    func testATorExitCannotSignUp() async throws {
        let client = IPDataSandbox().client()
        let allowed = try await signUpIsAllowed(from: IPDataScenario.torExit.ip!, client: client)
        XCTAssertFalse(allowed)
    }

    func testAnExhaustedQuotaIsReported() async throws {
        let client = IPDataSandbox(failing: .quotaExceeded).client()
        do {
            _ = try await signUpIsAllowed(from: "8.8.8.8", client: client)
            XCTFail("expected an error")
        } catch IPDataError.forbidden {
            // the app shows "try again later"
        }
    }
}

/// The models' initialisers, in a test of code that reads an answer.
final class SignInPlaceTests: XCTestCase {
    func testAVPNIsNamed() {
        let info = IPResponse(
            ip: "8.8.8.8", city: "Mountain View", countryName: "United States", threat: Threat(isVPN: true))
        XCTAssertEqual(signInPlace(info), "Mountain View, United States (VPN)")
    }
}
