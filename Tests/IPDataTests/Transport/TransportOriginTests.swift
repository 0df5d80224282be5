import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPDataTransport.hasSameOrigin(_:as:)` and `originText(of:)`, the rule a transport of your own
/// follows redirects by (RFC 6454: scheme, host and port, the default port filled in).
final class TransportOriginTests: XCTestCase {
    private func url(_ text: String) -> URL { URL(string: text)! }

    func testOneOriginWhateverThePathTheCaseAndTheDefaultPort() {
        XCTAssertTrue(
            StubTransport.hasSameOrigin(url("https://API.ipdata.co:443/x?y=1"), as: url("https://api.ipdata.co")))
        XCTAssertTrue(StubTransport.hasSameOrigin(url("http://[::1]:80/a"), as: url("http://[::1]/b")))
    }

    func testAnotherSchemeHostOrPortIsAnotherOrigin() {
        let api = url("https://api.ipdata.co/8.8.8.8")
        XCTAssertFalse(StubTransport.hasSameOrigin(url("http://api.ipdata.co/8.8.8.8"), as: api))
        XCTAssertFalse(StubTransport.hasSameOrigin(url("https://eu-api.ipdata.co/8.8.8.8"), as: api))
        XCTAssertFalse(StubTransport.hasSameOrigin(url("https://api.ipdata.co:8443/8.8.8.8"), as: api))
        XCTAssertFalse(StubTransport.hasSameOrigin(url("file:///etc/hosts"), as: url("file:///etc/hosts")), "no host")
    }

    func testTheOriginTextNamesTheServerWithoutThePathOrTheKey() {
        XCTAssertEqual(
            StubTransport.originText(of: url("https://api.ipdata.co/8.8.8.8?api-key=k3y")), "https://api.ipdata.co:443")
        XCTAssertEqual(StubTransport.originText(of: url("http://[::1]:8080/")), "http://[::1]:8080")
        XCTAssertNil(StubTransport.originText(of: url("ftp://example.com/")), "a scheme without a known port")
    }
}
