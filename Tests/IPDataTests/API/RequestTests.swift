import Foundation
import XCTest

@testable import IPData

/// What goes on the wire: URLs, query, headers and bodies of every call.
final class RequestTests: MockedClientTestCase {
    override func setUp() {
        super.setUp()
        MockURLProtocol.respond(body: (try? Fixture.data(Fixture.googleLookup)) ?? Data())
    }

    func testLookupSendsKeyAsQueryParameterAndHeader() async throws {
        _ = try await client.lookup("8.8.8.8")
        let request = try onlyRequest()
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.url.absoluteString, "https://api.ipdata.co/8.8.8.8?api-key=test-key-123")
        XCTAssertEqual(request.header("api-key"), Self.apiKey)
    }

    func testOwnAddressLookupRequestsTheRootPath() async throws {
        _ = try await client.lookup()
        XCTAssertEqual(try onlyRequest().url.absoluteString, "https://api.ipdata.co/?api-key=test-key-123")
    }

    func testFieldsAreSentCommaSeparated() async throws {
        _ = try await client.lookup("8.8.8.8", fields: ["ip", "city", "country_name"])
        XCTAssertEqual(try onlyRequest().query["fields"], "ip,city,country_name")
    }

    func testEmptyFieldsSendNoFieldsParameter() async throws {
        _ = try await client.lookup("8.8.8.8", fields: [])
        XCTAssertNil(try onlyRequest().query["fields"])
    }

    func testFieldNamesPassThroughUnvalidated() async throws {
        _ = try await client.lookup("8.8.8.8", fields: ["is_satellite", "is_anycast", "not_a_field_yet"])
        XCTAssertEqual(try onlyRequest().query["fields"], "is_satellite,is_anycast,not_a_field_yet")
    }

    func testLookupSendsAcceptJSON() async throws {
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(try onlyRequest().header("Accept"), "application/json")
    }

    func testRawFieldLookupSendsAcceptJSON() async throws {
        _ = try await client.lookupField("8.8.8.8", field: "asn")
        XCTAssertEqual(try onlyRequest().header("Accept"), "application/json")
    }

    func testBulkLookupSendsAcceptAndContentTypeJSON() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.bulkPair))
        _ = try await client.bulkLookup(["8.8.8.8", "1.1.1.1"])
        let request = try onlyRequest()
        XCTAssertEqual(request.header("Accept"), "application/json")
        XCTAssertEqual(request.header("Content-Type"), "application/json")
    }

    func testBulkLookupPostsAJSONArrayOfAddresses() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.bulkPair))
        _ = try await client.bulkLookup(["8.8.8.8", "1.1.1.1"], fields: ["ip", "is_anycast"])
        let request = try onlyRequest()
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.url.path, "/bulk")
        XCTAssertEqual(request.query["api-key"], Self.apiKey)
        XCTAssertEqual(request.query["fields"], "ip,is_anycast")
        let body = try XCTUnwrap(request.body)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: body) as? [String], ["8.8.8.8", "1.1.1.1"])
    }

    func testBulkBodyEscapesJSONSpecialCharacters() throws {
        let odd = ["a\"b", "c\\d", "e\nf", "\u{01}", "ü/"]
        let body = Endpoint.jsonArray(odd)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: body) as? [String], odd)
    }

    func testLookupFieldRequestsTheFieldPathAndReturnsTheRawBody() async throws {
        let body = try Fixture.data(Fixture.countryNameField)
        MockURLProtocol.respond(body: body, headers: ["Content-Type": "text/plain"])
        let data = try await client.lookupField("8.8.8.8", field: "country_name")
        XCTAssertEqual(data, body)
        XCTAssertEqual(try onlyRequest().url.path, "/8.8.8.8/country_name")
    }

    func testLookupASNKeepsAnASPrefix() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.asnDetail))
        _ = try await client.lookupASN("AS15169")
        XCTAssertEqual(try onlyRequest().url.path, "/AS15169")
    }

    func testLookupASNAddsTheASPrefixToABareNumber() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.asnDetail))
        _ = try await client.lookupASN("15169")
        XCTAssertEqual(try onlyRequest().url.path, "/AS15169")
    }

    func testASNNormalisation() throws {
        XCTAssertEqual(try InputValidation.asnPath("as15169"), "AS15169")
        XCTAssertEqual(try InputValidation.asnPath("15169"), "AS15169")
        XCTAssertEqual(try InputValidation.asnPath("AS13335"), "AS13335")
    }

    func testEUBaseURLIsUsed() async throws {
        let client = IPDataClient(
            apiKey: Self.apiKey, baseURL: IPDataClient.euBaseURL, session: MockURLProtocol.makeSession())
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(try onlyRequest().url.absoluteString, "https://eu-api.ipdata.co/8.8.8.8?api-key=test-key-123")
    }

    func testBaseURLConstants() {
        XCTAssertEqual(IPDataClient.defaultBaseURL.absoluteString, "https://api.ipdata.co")
        XCTAssertEqual(IPDataClient.euBaseURL.absoluteString, "https://eu-api.ipdata.co")
    }

    func testBaseURLPathPrefixIsKept() async throws {
        for base in ["https://gateway.example/ipdata", "https://gateway.example/ipdata/"] {
            MockURLProtocol.reset()
            MockURLProtocol.respond(body: try Fixture.data(Fixture.googleLookup))
            let client = IPDataClient(
                apiKey: Self.apiKey, baseURL: URL(string: base)!, session: MockURLProtocol.makeSession())
            _ = try await client.lookup("8.8.8.8")
            _ = try await client.lookup()
            XCTAssertEqual(
                sent.map(\.url.absoluteString),
                [
                    "https://gateway.example/ipdata/8.8.8.8?api-key=test-key-123",
                    "https://gateway.example/ipdata/?api-key=test-key-123",
                ], base)
        }
    }

    func testIPv6AddressIsOnePathSegment() async throws {
        _ = try await client.lookup("2001:4860:4860::8844")
        XCTAssertEqual(
            try onlyRequest().url.absoluteString, "https://api.ipdata.co/2001:4860:4860::8844?api-key=test-key-123")
    }

    func testCallerTextIsEncodedAsOnePathSegmentAndOneQueryValue() {
        let url = Endpoint.field(address: "8.8.8.8/../bulk?api-key=x#frag", field: "a&b=c")
            .url(baseURL: IPDataClient.defaultBaseURL, apiKey: Self.apiKey, fields: ["ip,x", "a&api-key=y"])
        XCTAssertEqual(
            url.absoluteString,
            "https://api.ipdata.co/8.8.8.8%2F..%2Fbulk%3Fapi-key%3Dx%23frag/a%26b%3Dc"
                + "?api-key=test-key-123&fields=ip%2Cx,a%26api-key%3Dy")
    }

    func testDotSegmentsAreEncoded() {
        let url = Endpoint.address("..").url(baseURL: IPDataClient.defaultBaseURL, apiKey: "k", fields: nil)
        XCTAssertEqual(url.absoluteString, "https://api.ipdata.co/%2E%2E?api-key=k")
    }

    func testUserAgentNamesTheSDKVersion() async throws {
        _ = try await client.lookup("8.8.8.8")
        XCTAssertEqual(try onlyRequest().header("User-Agent"), "ipdata-swift/\(IPDataClient.sdkVersion)")
    }
}
