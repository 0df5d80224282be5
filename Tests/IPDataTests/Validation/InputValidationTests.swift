import Foundation
import XCTest

@testable import IPData

/// Caller text can never change the request: it is one path segment or one query value, or it
/// fails locally with the API's wording and sends nothing.
final class InputValidationTests: MockedClientTestCase {
    private enum Outcome {
        /// The exact URL sent.
        case url(String)
        /// `badRequest` with this message, and nothing sent.
        case rejected(String)
        /// `notFound` with this message, and nothing sent.
        case notFound(String)
    }

    private struct Case {
        let input: String
        let call: @Sendable (IPDataClient) async throws -> Void
        let outcome: Outcome
    }

    private static let base = "https://api.ipdata.co"
    private static let key = "?api-key=test-key-123"

    private static func address(_ input: String, _ outcome: Outcome) -> Case {
        Case(input: "lookup(\(input.debugDescription))", call: { _ = try await $0.lookup(input) }, outcome: outcome)
    }

    private static func invalidAddress(_ input: String) -> Case {
        address(input, .rejected("\(input) does not appear to be an IPv4 or IPv6 address"))
    }

    private static func field(_ input: String, _ outcome: Outcome) -> Case {
        Case(
            input: "lookupField(field: \(input.debugDescription))",
            call: { _ = try await $0.lookupField("8.8.8.8", field: input) }, outcome: outcome)
    }

    private static func fields(_ input: [String], _ outcome: Outcome) -> Case {
        Case(input: "fields: \(input)", call: { _ = try await $0.lookup("8.8.8.8", fields: input) }, outcome: outcome)
    }

    private static func asn(_ input: String, _ outcome: Outcome) -> Case {
        Case(
            input: "lookupASN(\(input.debugDescription))", call: { _ = try await $0.lookupASN(input) }, outcome: outcome
        )
    }

    private static func invalidASN(_ input: String, _ message: String) -> Case {
        asn(input, .notFound(message))
    }

    private static let cases: [Case] = [
        invalidAddress("8.8.8.8/../bulk"),
        invalidAddress("8.8.8.8?api-key=x"),
        invalidAddress("8.8.8.8#x"),
        invalidAddress("%2F"),
        invalidAddress(".."),
        invalidAddress("."),
        invalidAddress(""),
        invalidAddress(" 8.8.8.8"),
        invalidAddress("8.8.8.8 "),
        invalidAddress("8.8.8.8\r\nHost: evil.example"),
        invalidAddress("8.8.8.8\u{0}"),
        invalidAddress(String(repeating: "1", count: 10_000)),
        invalidAddress("８.８.８.８"),
        invalidAddress("fe80::1%eth0"),
        invalidAddress("8.8.8"),
        invalidAddress("1.2.3.4.5"),
        invalidAddress("256.1.1.1"),
        invalidAddress("bleh"),
        address("::ffff:1.2.3.4", .url("\(base)/::ffff:1.2.3.4\(key)")),
        address("2001:DB8::1", .url("\(base)/2001:DB8::1\(key)")),
        address("127.0.0.1", .url("\(base)/127.0.0.1\(key)")),
        address("224.244.244.244", .url("\(base)/224.244.244.244\(key)")),
        field("asn/../../bulk", .url("\(base)/8.8.8.8/asn%2F..%2F..%2Fbulk\(key)")),
        field("asn?api-key=x", .url("\(base)/8.8.8.8/asn%3Fapi-key%3Dx\(key)")),
        field("asn#x", .url("\(base)/8.8.8.8/asn%23x\(key)")),
        field("..", .url("\(base)/8.8.8.8/%2E%2E\(key)")),
        field("%2F", .url("\(base)/8.8.8.8/%252F\(key)")),
        field("a b", .url("\(base)/8.8.8.8/a%20b\(key)")),
        field("asn\r\nX: y", .url("\(base)/8.8.8.8/asn%0D%0AX:%20y\(key)")),
        field("ünï", .url("\(base)/8.8.8.8/%C3%BCn%C3%AF\(key)")),
        field("", .rejected("A field name is required, for example asn or country_name.")),
        fields(["ip&api-key=x"], .url("\(base)/8.8.8.8\(key)&fields=ip%26api-key%3Dx")),
        fields(["ip#x", "city"], .url("\(base)/8.8.8.8\(key)&fields=ip%23x,city")),
        fields(["a,b", "c d"], .url("\(base)/8.8.8.8\(key)&fields=a%2Cb,c%20d")),
        asn("as15169", .url("\(base)/AS15169\(key)")),
        asn("15169", .url("\(base)/AS15169\(key)")),
        invalidASN("AS15169/../x", "AS15169/../x was not found."),
        invalidASN("15169?x", "AS15169?x was not found."),
        invalidASN("AS", "AS was not found."),
        invalidASN("ASBlah", "ASBlah was not found."),
        invalidASN("Blah", "ASBlah was not found."),
        invalidASN(" 15169", "AS 15169 was not found."),
        invalidASN("AS99999999999", "AS99999999999 was not found."),
        invalidASN("AS١٢٣", "AS١٢٣ was not found."),
    ]

    func testHostileInputsProduceExactlyTheExpectedRequestOrALocalError() async throws {
        XCTAssertGreaterThanOrEqual(Self.cases.count, 30)
        MockURLProtocol.respond(body: try Fixture.data(Fixture.asnDetail))
        for testCase in Self.cases {
            MockURLProtocol.reset()
            MockURLProtocol.respond(body: try Fixture.data(Fixture.asnDetail))
            var thrown: Error?
            do { try await testCase.call(client) } catch { thrown = error }
            switch testCase.outcome {
            case .url(let expected):
                XCTAssertEqual(sent.map(\.url.absoluteString), [expected], testCase.input)
            case .rejected(let expected):
                XCTAssertEqual(sent.count, 0, "\(testCase.input) sent a request")
                guard case IPDataError.badRequest(let message)? = thrown else {
                    XCTFail("\(testCase.input): expected badRequest, got \(String(describing: thrown))")
                    continue
                }
                XCTAssertEqual(message, expected, testCase.input)
            case .notFound(let expected):
                XCTAssertEqual(sent.count, 0, "\(testCase.input) sent a request")
                guard case IPDataError.notFound(let message)? = thrown else {
                    XCTFail("\(testCase.input): expected notFound, got \(String(describing: thrown))")
                    continue
                }
                XCTAssertEqual(message, expected, testCase.input)
            }
        }
    }

    func testEmptyBulkListFailsLocally() async {
        let error = await capturedError { try await self.client.bulkLookup([]) }
        guard case .badRequest("You did not provide a valid JSON Array.")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
        XCTAssertEqual(sent.count, 0)
    }

    func testBulkListOverOneHundredFailsLocally() async {
        let ips = (1...101).map { "10.0.0.\($0)" }
        let error = await capturedError { try await self.client.bulkLookup(ips) }
        guard case .badRequest("Bulk requests should not contain more than 100 IP addresses.")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
        XCTAssertEqual(sent.count, 0)
    }

    func testBulkOfExactlyOneHundredIsSent() async throws {
        let ips = (1...100).map { "8.8.\($0 / 256).\($0 % 256)" }
        let body = try Fixture.json(ips.map { ["ip": $0] })
        MockURLProtocol.respond(body: body)
        let results = try await client.bulkLookup(ips)
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(sent.count, 1)
    }

    func testInvalidAddressesInABulkListAreAnsweredLocallyAndNotSent() async throws {
        MockURLProtocol.respond(
            body: try Fixture.json([["ip": "8.8.8.8"], ["message": "127.0.0.1 is a private IP address"]]))
        let results = try await client.bulkLookup(["bleh", "8.8.8.8", "8.8.8.8/../x", "127.0.0.1"])
        let body = try XCTUnwrap(try onlyRequest().body)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: body) as? [String], ["8.8.8.8", "127.0.0.1"])
        XCTAssertEqual(results.map(\.ip), ["bleh", "8.8.8.8", "8.8.8.8/../x", "127.0.0.1"])
        XCTAssertEqual(
            results.map(\.message),
            [
                "bleh does not appear to be an IPv4 or IPv6 address", nil,
                "8.8.8.8/../x does not appear to be an IPv4 or IPv6 address", "127.0.0.1 is a private IP address",
            ])
    }

    func testABulkListWithNoValidAddressSendsNothing() async throws {
        let results = try await client.bulkLookup(["bleh", ""])
        XCTAssertEqual(results.map(\.ip), ["bleh", ""])
        XCTAssertEqual(sent.count, 0)
    }

    func testABulkAnswerOfTheWrongLengthIsADecodingFailure() async throws {
        MockURLProtocol.respond(body: try Fixture.json([["ip": "8.8.8.8"]]))
        let error = await capturedError { try await self.client.bulkLookup(["8.8.8.8", "1.1.1.1"]) }
        guard case .decodingFailed? = error else { return XCTFail("got \(String(describing: error))") }
    }
}
