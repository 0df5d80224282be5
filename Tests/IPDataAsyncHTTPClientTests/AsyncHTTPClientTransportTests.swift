#if AsyncHTTPClient
import Foundation
import XCTest

@testable import IPData
@testable import IPDataAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `AsyncHTTPClientTransport` does without a server. Its guarantees against a server are
/// the integration suite's, which runs through it with `IPDATA_TEST_TRANSPORT=asynchttpclient`
/// (see Tests/IPDataIntegrationTests/Support/TestTransport.swift).
final class AsyncHTTPClientTransportTests: XCTestCase {
    func testAKeyInAnErrorTheTransportBuildsIsRedacted() {
        let request = Endpoint.address("8.8.8.8").urlRequest(
            baseURL: URL(string: "https://127.0.0.1:1")!, apiKey: "secret-key-123", fields: nil)
        let error = AsyncHTTPClientTransport.urlError(
            for: Echo(text: "failed: \(request.url!.absoluteString)"),
            redaction: AsyncHTTPClientTransport.redaction(for: request))
        XCTAssertFalse(error.localizedDescription.contains("secret-key-123"), error.localizedDescription)
        XCTAssertTrue(error.localizedDescription.contains(KeyRedaction.placeholder), error.localizedDescription)
    }

    private struct Echo: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }
}
#endif
