import Foundation
import XCTest

@testable import IPData

/// How bulk answers become one result per address, in order.
final class BulkResultTests: MockedClientTestCase {
    func testRejectedAddressesCarryTheirAddressAndTheAPIMessage() async throws {
        MockURLProtocol.respond(body: try Fixture.data(Fixture.bulkWithPrivateIP))
        let results = try await client.bulkLookup(["1.1.1.1", "8.8.8.8", "127.0.0.1"])
        XCTAssertEqual(results.map(\.ip), ["1.1.1.1", "8.8.8.8", "127.0.0.1"])
        XCTAssertEqual(results.map(\.message), [nil, nil, "127.0.0.1 is a private IP address"])
        XCTAssertEqual(results[0].countryName, "Australia")
    }

    func testAnsweredAddressesKeepWhatTheAPISent() async throws {
        // With fields that leave `ip` out, answered results have no `ip`: nothing is made up.
        MockURLProtocol.respond(body: try Fixture.json([["country_name": "Australia"], ["message": "private"]]))
        let results = try await client.bulkLookup(["1.1.1.1", "10.0.0.1"], fields: ["country_name"])
        XCTAssertEqual(results.map(\.ip), [nil, "10.0.0.1"])
    }

    func testAnElementThatIsNotAnObjectBecomesAResultWithAMessage() async throws {
        MockURLProtocol.respond(body: Data(#"[{"ip": "8.8.8.8"}, 42]"#.utf8))
        let results = try await client.bulkLookup(["8.8.8.8", "1.1.1.1"])
        XCTAssertEqual(results.map(\.ip), ["8.8.8.8", "1.1.1.1"])
        XCTAssertNil(results[0].message)
        XCTAssertEqual(results[1].message, "The API sent no readable result for this address.")
    }
}
