import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `IPDataTransport.hasSameOrigin(_:as:)` and `originText(of:)`, the rule a transport of your own
/// follows redirects by (RFC 6454: scheme, host and port, the default port filled in).
final class TransportOriginTests: XCTestCase {
    private struct AnyTransport: IPDataTransport {
        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            throw URLError(.unsupportedURL)
        }
    }

    private func url(_ text: String) -> URL { URL(string: text)! }

    func testOneOriginWhateverThePathTheCaseAndTheDefaultPort() {
        XCTAssertTrue(
            AnyTransport.hasSameOrigin(url("https://API.ipdata.co:443/x?y=1"), as: url("https://api.ipdata.co")))
        XCTAssertTrue(AnyTransport.hasSameOrigin(url("http://[::1]:80/a"), as: url("http://[::1]/b")))
    }

    func testAnotherSchemeHostOrPortIsAnotherOrigin() {
        let api = url("https://api.ipdata.co/8.8.8.8")
        XCTAssertFalse(AnyTransport.hasSameOrigin(url("http://api.ipdata.co/8.8.8.8"), as: api))
        XCTAssertFalse(AnyTransport.hasSameOrigin(url("https://eu-api.ipdata.co/8.8.8.8"), as: api))
        XCTAssertFalse(AnyTransport.hasSameOrigin(url("https://api.ipdata.co:8443/8.8.8.8"), as: api))
        XCTAssertFalse(AnyTransport.hasSameOrigin(url("file:///etc/hosts"), as: url("file:///etc/hosts")), "no host")
    }

    func testTheOriginTextNamesTheServerWithoutThePathOrTheKey() {
        XCTAssertEqual(
            AnyTransport.originText(of: url("https://api.ipdata.co/8.8.8.8?api-key=k3y")), "https://api.ipdata.co:443")
        XCTAssertEqual(AnyTransport.originText(of: url("http://[::1]:8080/")), "http://[::1]:8080")
        XCTAssertNil(AnyTransport.originText(of: url("ftp://example.com/")), "a scheme without a known port")
    }
}
