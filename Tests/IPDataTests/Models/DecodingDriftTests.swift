import Foundation
import XCTest

@testable import IPData

/// A value that arrives with another JSON type than documented never fails the whole response.
final class DecodingDriftTests: XCTestCase {
    private func decode(_ object: [String: Any]) throws -> IPResponse {
        try JSONDecoder().decode(IPResponse.self, from: Fixture.json(object))
    }

    func testScalarsAreConvertedWhereTheMeaningIsClear() throws {
        let info = try decode([
            "latitude": "37.5", "longitude": -122, "is_eu": 1, "city": 123, "count": 12.0, "postal": 94035,
        ])
        XCTAssertEqual(info.latitude, 37.5)
        XCTAssertEqual(info.longitude, -122)
        XCTAssertEqual(info.isEU, true)
        XCTAssertEqual(info.city, "123")
        XCTAssertEqual(info.count, 12)
        XCTAssertEqual(info.postal, "94035")
    }

    /// Numeric strings are read as plain decimal by the client's own rule, not by whatever the
    /// platform's `strtod` also accepts (hex, `inf`, `nan`).
    func testNumericStringsArePlainDecimalOnEveryPlatform() throws {
        let table: [(text: String, value: Double?)] = [
            ("37.5", 37.5), ("-122", -122), ("+3", 3), (" 1.5 ", 1.5), (".5", 0.5), ("5.", 5), ("1e3", 1000),
            ("2.5E-1", 0.25), ("0x10", nil), ("0x1p4", nil), ("inf", nil), ("-infinity", nil), ("nan", nil),
            ("nan(1)", nil), ("1,5", nil), ("1.2.3", nil), ("1e", nil), ("e5", nil), (".", nil), ("-", nil),
            ("1e400", nil), ("", nil), ("12abc", nil),
        ]
        for (text, value) in table {
            XCTAssertEqual(try decode(["latitude": text]).latitude, value, text)
        }
        XCTAssertEqual(try decode(["count": "1e3"]).count, 1000)
        XCTAssertNil(try decode(["count": "0x10"]).count)
    }

    func testBooleansAcceptZeroOneAndTheirText() throws {
        XCTAssertEqual(try decode(["is_eu": 0]).isEU, false)
        XCTAssertEqual(try decode(["is_eu": "true"]).isEU, true)
        XCTAssertEqual(try decode(["is_eu": "FALSE"]).isEU, false)
        XCTAssertEqual(try decode(["is_satellite": "1"]).isSatellite, true)
        XCTAssertEqual(try decode(["time_zone": ["is_dst": "false"]]).timeZone?.isDST, false)
    }

    func testScalarsWithoutAClearMeaningReadAsNil() throws {
        let info = try decode([
            "latitude": true, "is_eu": "maybe", "city": ["Mountain View"], "count": "12.5", "region": ["a": 1],
            "is_anycast": 2,
        ])
        XCTAssertNil(info.latitude)
        XCTAssertNil(info.isEU)
        XCTAssertNil(info.city)
        XCTAssertNil(info.count)
        XCTAssertNil(info.region)
        XCTAssertFalse(info.isAnycast)
    }

    func testWrongTypedObjectsAndArraysReadAsNil() throws {
        let info = try decode([
            "ip": "8.8.8.8", "asn": "AS15169", "currency": [1, 2], "languages": ["name": "English"],
            "time_zone": "PST", "threat": ["blocklists": "none", "scores": "high", "is_tor": false],
        ])
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertNil(info.asn)
        XCTAssertNil(info.currency)
        XCTAssertNil(info.languages)
        XCTAssertNil(info.timeZone)
        XCTAssertEqual(info.threat?.isTor, false, "the rest of the object survives")
        XCTAssertNil(info.threat?.blocklists)
        XCTAssertNil(info.threat?.scores)
    }

    func testArrayElementsOfTheWrongShapeAreDropped() throws {
        let info = try decode([
            "languages": [1, ["name": "English"], "French"],
            "threat": ["blocklists": [["name": "A", "days_seen": "3"], "B"], "scores": ["trust_score": "95"]],
        ])
        XCTAssertEqual(info.languages?.map(\.name), ["English"])
        XCTAssertEqual(info.threat?.blocklists?.map(\.name), ["A"])
        XCTAssertEqual(info.threat?.blocklists?.first?.daysSeen, 3)
        XCTAssertEqual(info.threat?.scores?.trustScore, 95)
    }

    func testOnlyABodyThatIsNotAnObjectFailsALookup() throws {
        for body in ["[]", "\"8.8.8.8\"", "null", "42", "", "{", "<html>"] {
            XCTAssertThrowsError(try JSONDecoder().decode(IPResponse.self, from: Data(body.utf8)), body)
        }
        XCTAssertEqual(try JSONDecoder().decode(IPResponse.self, from: Data("{}".utf8)), IPResponse())
    }
}
