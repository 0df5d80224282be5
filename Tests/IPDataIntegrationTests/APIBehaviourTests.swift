import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real server's error bodies and answers through the client.
final class APIBehaviourTests: LocalServerTestCase {
    private func client(key: String) -> IPDataClient {
        client(server.url("NORMAL"), key: key)
    }

    private func error<Value>(_ operation: () async throws -> Value) async -> IPDataError? {
        do {
            _ = try await operation()
        } catch let error as IPDataError {
            return error
        } catch {
            XCTFail("not an IPDataError: \(error)")
        }
        return nil
    }

    private func assertForbidden(key: String, fixture: String, _ call: (IPDataClient) async throws -> Void) async throws
    {
        let expected = try DocumentedMessage.of(fixture)
        let error = await error { try await call(client(key: key)) }
        guard case .forbidden(let message)? = error else {
            return XCTFail("\(fixture): got \(String(describing: error))")
        }
        XCTAssertEqual(message, expected, fixture)
    }

    func testEveryDocumentedForbiddenBodyMapsToForbidden() async throws {
        try await assertForbidden(key: "quota-key", fixture: "403-free-quota-exceeded.json") {
            _ = try await $0.lookup("8.8.8.8")
        }
        try await assertForbidden(key: "daily-quota-key", fixture: "403-daily-quota-exceeded-paid.json") {
            _ = try await $0.lookup("8.8.8.8")
        }
        try await assertForbidden(key: "whitelist-key", fixture: "403-not-in-whitelist.json") {
            _ = try await $0.lookup("8.8.8.8")
        }
        try await assertForbidden(key: "legacy-key", fixture: "403-quota-or-nonexistent-key.LEGACY.json") {
            _ = try await $0.lookup("8.8.8.8")
        }
        try await assertForbidden(key: "free-key", fixture: "403-bulk-requires-paid.json") {
            _ = try await $0.bulkLookup(["8.8.8.8"])
        }
        try await assertForbidden(key: "free-key", fixture: "403-asn-requires-paid.json") {
            _ = try await $0.lookupASN("AS15169")
        }
    }

    func testAnInvalidKeyIsUnauthorized() async throws {
        let error = await error { try await client(key: "not-a-key").lookup("8.8.8.8") }
        guard case .unauthorized(let message)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(message, try DocumentedMessage.of("401-no-valid-api-key.json"))
    }

    func testPrivateAndReservedAddressesAreBadRequests() async throws {
        let client = client(key: server.key)
        let privateError = await error { try await client.lookup("127.0.0.1") }
        guard case .badRequest(let privateMessage)? = privateError else {
            return XCTFail("got \(String(describing: privateError))")
        }
        XCTAssertEqual(privateMessage, try DocumentedMessage.of("400-private-ip.json"))
        let reservedError = await error { try await client.lookup("224.244.244.244") }
        guard case .badRequest(let reservedMessage)? = reservedError else {
            return XCTFail("got \(String(describing: reservedError))")
        }
        XCTAssertEqual(reservedMessage, try DocumentedMessage.of("400-reserved-ip.json"))
    }

    func testAnUnknownASNIsNotFound() async throws {
        let error = await error { try await client(key: server.key).lookupASN("AS4294967295") }
        guard case .notFound("AS4294967295 was not found.")? = error else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testAPlainTextRateLimitIsAnUnexpectedStatus() async throws {
        let error = await error { try await client(key: "ratelimit-key").lookup("8.8.8.8") }
        guard case .unexpectedStatus(429, let message)? = error else {
            return XCTFail("got \(String(describing: error))")
        }
        XCTAssertFalse(message.isEmpty)
        XCTAssertFalse(message.contains("{"), "a plain-text body is the message as text")
    }

    func testBulkInlineErrorsAreReportedPerAddress() async throws {
        let ips = ["8.8.8.8", "127.0.0.1", "224.244.244.244", "1.1.1.1"]
        let results = try await client(key: server.key).bulkLookup(ips)
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(
            results.map(\.message),
            [nil, "127.0.0.1 is a private IP address", "224.244.244.244 is a reserved IP address.", nil])
        XCTAssertNotNil(results[0].countryName)
        XCTAssertNotNil(results[3].countryName)
    }

    func testFieldsSelectionReturnsOnlyThoseFields() async throws {
        let info = try await client(key: server.key).lookup("8.8.8.8", fields: ["ip", "country_name"])
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertNotNil(info.countryName)
        XCTAssertNil(info.city)
        XCTAssertNil(info.asn)
    }

    func testAStringFieldArrivesAsPlainText() async throws {
        let data = try await client(key: server.key).lookupField("8.8.8.8", field: "country_name")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "United States")
    }

    func testAnObjectFieldArrivesAsJSON() async throws {
        let data = try await client(key: server.key).lookupField("8.8.8.8", field: "asn")
        let asn = try JSONDecoder().decode(ASN.self, from: data)
        XCTAssertEqual(asn.asn, "AS15169")
    }

    func testASNDetailDecodesFromTheServer() async throws {
        let detail = try await client(key: server.key).lookupASN("15169")
        XCTAssertEqual(detail.asn, "AS15169")
        XCTAssertFalse(detail.ipv4Prefixes?.isEmpty ?? true)
    }
}
