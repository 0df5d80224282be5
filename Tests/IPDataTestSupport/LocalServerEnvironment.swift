import Foundation
import XCTest

/// The environment that `TestServer/start` writes to its `env` file, for the tests that use the
/// local API server: the process's environment when it names the server, else a skip (a failure
/// when `IPDATA_INTEGRATION_REQUIRED=1`, as in CI).
public func localServerEnvironment() throws -> [String: String] {
    let environment = ProcessInfo.processInfo.environment
    guard environment["IPDATA_TEST_URL_NORMAL"] != nil else {
        let reason = "no local API server: run TestServer/start and source its env (see TestServer/README.md)"
        if environment["IPDATA_INTEGRATION_REQUIRED"] == "1" { XCTFail(reason) }
        throw XCTSkip(reason)
    }
    return environment
}
