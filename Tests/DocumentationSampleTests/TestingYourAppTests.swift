// The test sample of IPData.docc/TestingYourApp.md, run as written against the `signUpIsAllowed`
// of AppRules.swift (the article's own copy of that rule is compiled in Examples/DocCExamples).
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
