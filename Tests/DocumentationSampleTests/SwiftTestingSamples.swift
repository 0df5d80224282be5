// The Swift Testing sample of IPDataTesting.docc/WritingTestsWithTheSandbox.md, run as written
// where the toolchain has Swift Testing (Swift 6 and later).
#if canImport(Testing)
import IPData
import IPDataTesting
import Testing

@Test func aVPNCannotSignUp() async throws {
    let client = IPDataSandbox().client()
    #expect(try await signUpIsAllowed(from: IPDataScenario.vpn.ip!, client: client) == false)
}

@Test(arguments: IPDataScenario.addresses)
func everyAddressSampleDecodes(_ scenario: IPDataScenario) async throws {
    let info = try await IPDataSandbox().client().lookup(scenario.ip!)
    #expect(info.ip == scenario.ip, "\(scenario.name)")
    #expect(info.countryCode != nil)
}
#endif
