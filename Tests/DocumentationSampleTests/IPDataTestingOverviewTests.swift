// The test sample of IPDataTesting.docc/IPDataTesting.md, run as written.
import IPData
import IPDataTesting
import XCTest

/// A Tor exit's lookup, as the IPDataTesting landing page shows it.
final class TorExitTests: XCTestCase {
    func testATorExitIsFlagged() async throws {
        let sandbox = IPDataSandbox()
        let client = sandbox.client()

        let info = try await client.lookup(IPDataScenario.torExit.ip!)

        XCTAssertEqual(info.threat?.isTor, true)
        XCTAssertEqual(sandbox.requests.count, 1)
    }
}
