import Foundation
import XCTest

@testable import IPData

/// Decoding the API's sample bodies into the models, and the models' Codable round trip.
final class ModelDecodingTests: XCTestCase {
    /// Tests that walk a fixture folder must not read what a Mac's Finder leaves in it.
    func testOnlyJSONAndTextFilesAreFixtures() {
        XCTAssertTrue(Fixture.isFixture("8.8.8.8.SYNTHETIC.json"))
        XCTAssertTrue(Fixture.isFixture("8.8.8.8-country_name.single-field-body.txt"))
        for name in [".DS_Store", "._8.8.8.8.json", "README.md", "8.8.8.8.json~", "Icon\r"] {
            XCTAssertFalse(Fixture.isFixture(name), name)
        }
    }

    func testAFullLookupDecodesEveryField() throws {
        let info = try Fixture.decode(IPResponse.self, Fixture.googleLookup)
        XCTAssertEqual(info.ip, "8.8.8.8")
        XCTAssertEqual(info.isEU, false)
        XCTAssertEqual(info.city, "Mountain View")
        XCTAssertEqual(info.region, "California")
        XCTAssertEqual(info.regionCode, "CA")
        XCTAssertEqual(info.regionType, "state")
        XCTAssertEqual(info.countryName, "United States")
        XCTAssertEqual(info.countryCode, "US")
        XCTAssertEqual(info.continentName, "North America")
        XCTAssertEqual(info.continentCode, "NA")
        XCTAssertEqual(info.latitude, 37.386)
        XCTAssertEqual(info.longitude, -122.0838)
        XCTAssertEqual(info.postal, "94035")
        XCTAssertEqual(info.callingCode, "1")
        XCTAssertEqual(info.flag, "https://ipdata.co/flags/us.png")
        XCTAssertEqual(info.emojiFlag, "🇺🇸")
        XCTAssertEqual(info.emojiUnicode, "U+1F1FA U+1F1F8")
        XCTAssertEqual(info.asn?.name, "Google LLC")
        XCTAssertEqual(info.asn?.route, "8.8.8.0/24")
        XCTAssertEqual(info.company?.network, "8.8.8.0/24")
        XCTAssertEqual(info.carrier?.mnc, "004")
        XCTAssertEqual(info.languages?.first?.code, "en")
        XCTAssertEqual(info.currency?.plural, "US dollars")
        XCTAssertEqual(info.timeZone?.isDST, true)
        XCTAssertEqual(info.timeZone?.currentTime, "2025-06-15T10:30:00-07:00")
        XCTAssertEqual(info.threat?.isDatacenter, true)
        XCTAssertEqual(info.threat?.isVPN, false)
        XCTAssertEqual(info.threat?.isICloudRelay, false)
        XCTAssertEqual(info.threat?.blocklists, [])
        XCTAssertEqual(info.threat?.scores?.trustScore, 95)
        XCTAssertEqual(info.count, 42)
        XCTAssertNil(info.message)
    }

    func testSatelliteSampleDecodes() throws {
        let info = try Fixture.decode(IPResponse.self, Fixture.satelliteLookup)
        XCTAssertEqual(info.ip, "143.105.40.17")
        XCTAssertTrue(info.isSatellite)
        XCTAssertFalse(info.isAnycast, "is_anycast is absent, so it reads false")
        XCTAssertEqual(info.timeZone?.currentTime, "2026-11-20T08:15:02.118342-08:00", "microseconds kept")
    }

    func testAnycastSampleWithDatedBlocklistsDecodes() throws {
        let info = try Fixture.decode(IPResponse.self, Fixture.anycastLookup)
        XCTAssertTrue(info.isAnycast)
        XCTAssertFalse(info.isSatellite, "is_satellite is absent, so it reads false")
        let lists = try XCTUnwrap(info.threat?.blocklists)
        XCTAssertEqual(lists.count, 3)
        XCTAssertEqual(lists[0].name, "Firehol Level 1")
        XCTAssertEqual(lists[0].type, "general")
        XCTAssertEqual(lists[0].firstSeen, "2026-09-02")
        XCTAssertEqual(lists[0].lastSeen, "2026-11-19")
        XCTAssertEqual(lists[0].daysSeen, 61)
        XCTAssertEqual(lists[1].daysSeen, 1)
    }

    func testABlocklistEntryWithoutDatesDecodesWithNilDates() throws {
        let info = try Fixture.decode(IPResponse.self, Fixture.anycastLookup)
        let vpnFeed = try XCTUnwrap(info.threat?.blocklists?.last)
        XCTAssertEqual(vpnFeed.name, "ipdata.co VPN feed")
        XCTAssertEqual(vpnFeed.type, "vpn")
        XCTAssertNil(vpnFeed.firstSeen)
        XCTAssertNil(vpnFeed.lastSeen)
        XCTAssertNil(vpnFeed.daysSeen)
    }

    func testSatelliteAndAnycastReadFalseUnlessSentAsTrue() throws {
        let absent = try JSONDecoder().decode(IPResponse.self, from: Fixture.json(["ip": "1.1.1.1"]))
        XCTAssertFalse(absent.isSatellite)
        XCTAssertFalse(absent.isAnycast)
        let null = try JSONDecoder().decode(
            IPResponse.self, from: Data(#"{"is_satellite":null,"is_anycast":null}"#.utf8))
        XCTAssertFalse(null.isSatellite)
        XCTAssertFalse(null.isAnycast)
        let sentFalse = try JSONDecoder().decode(
            IPResponse.self, from: Fixture.json(["is_satellite": false, "is_anycast": false]))
        XCTAssertFalse(sentFalse.isSatellite)
        XCTAssertFalse(sentFalse.isAnycast)
        let sentTrue = try JSONDecoder().decode(
            IPResponse.self, from: Fixture.json(["is_satellite": true, "is_anycast": true]))
        XCTAssertTrue(sentTrue.isSatellite)
        XCTAssertTrue(sentTrue.isAnycast)
    }

    func testBulkResponsesCarryTheNewFields() throws {
        let satellite = try JSONSerialization.jsonObject(with: Fixture.data(Fixture.satelliteLookup))
        let anycast = try JSONSerialization.jsonObject(with: Fixture.data(Fixture.anycastLookup))
        let results = try JSONDecoder().decode([IPResponse].self, from: Fixture.json([satellite, anycast]))
        XCTAssertEqual(results.map(\.isSatellite), [true, false])
        XCTAssertEqual(results.map(\.isAnycast), [false, true])
        XCTAssertEqual(results[1].threat?.blocklists?.first?.daysSeen, 61)
    }

    func testUnknownKeysAreIgnored() throws {
        let legacy = try Fixture.decode(IPResponse.self, Fixture.legacyLookup)
        XCTAssertEqual(legacy.ip, "76.14.47.42", "the 2019 body with `organisation` still decodes")
        let extra = try JSONDecoder().decode(
            IPResponse.self, from: Fixture.json(["ip": "8.8.8.8", "brand_new_key": ["nested": [1, 2]], "status": 200]))
        XCTAssertEqual(extra.ip, "8.8.8.8")
    }

    func testCountDecodesFromAStringOrANumber() throws {
        XCTAssertEqual(try JSONDecoder().decode(IPResponse.self, from: Fixture.json(["count": "1506"])).count, 1506)
        XCTAssertEqual(try JSONDecoder().decode(IPResponse.self, from: Fixture.json(["count": 1506])).count, 1506)
        XCTAssertEqual(try Fixture.decode(IPResponse.self, Fixture.mobileLookup).count, 3895)
    }

    func testNullValuesReadAsNil() throws {
        let info = try Fixture.decode(IPResponse.self, Fixture.mobileLookup)
        let zone = try XCTUnwrap(info.timeZone, "an all-null time_zone is still an object")
        XCTAssertNil(zone.name)
        XCTAssertNil(zone.abbr)
        XCTAssertNil(zone.offset)
        XCTAssertNil(zone.isDST)
        XCTAssertNil(zone.currentTime)
        XCTAssertEqual(info.carrier?.name, "Verizon")
    }

    func testAnIPv6LookupDecodes() throws {
        let info = try Fixture.decode(IPResponse.self, Fixture.ipv6Lookup)
        XCTAssertEqual(info.ip, "2001:4860:4860::8844")
    }

    /// Each sample decodes, with the address it is named after (`2001-4860-4860--8844` for IPv6).
    func testEveryLookupSampleDecodes() throws {
        for file in try Fixture.files(in: "lookup") {
            let parts = file.dropFirst("lookup/".count).split(separator: ".")
            let address =
                parts[0].contains("-")
                ? parts[0].replacingOccurrences(of: "-", with: ":") : parts.prefix(4).joined(separator: ".")
            XCTAssertEqual(try Fixture.decode(IPResponse.self, file).ip, address, file)
        }
    }

    func testASNDetailDecodes() throws {
        let detail = try Fixture.decode(ASNDetail.self, Fixture.asnDetail)
        XCTAssertEqual(detail.asn, "AS15169")
        XCTAssertEqual(detail.name, "Google LLC")
        XCTAssertEqual(detail.numIPs, "16777216")
        XCTAssertEqual(detail.ipv4Prefixes, ["8.8.8.0/24", "8.8.4.0/24"])
        XCTAssertEqual(detail.ipv6Prefixes, ["2001:4860::/32"])
        XCTAssertEqual(detail.upstream, [11537])
        XCTAssertEqual(detail.downstream, [36040])
        XCTAssertEqual(detail.peers, [13335, 20940])
        XCTAssertEqual(detail.registry, "arin")
    }

    func testASNDetailAcceptsNumbersAndStringsForUnverifiedTypes() throws {
        let detail = try JSONDecoder().decode(
            ASNDetail.self,
            from: Fixture.json([
                "num_ips": 16_777_216, "peers": ["13335", "AS20940", 174], "upstream": ["3356", 1299],
                "downstream": "n/a",
            ]))
        XCTAssertEqual(detail.numIPs, "16777216")
        XCTAssertEqual(detail.peers, [13335, 20940, 174])
        XCTAssertEqual(detail.upstream, [3356, 1299])
        XCTAssertNil(detail.downstream)
    }

    func testRejectedBulkSlotCarriesTheAPIMessage() throws {
        let results = try Fixture.decode([IPResponse].self, Fixture.bulkWithPrivateIP)
        XCTAssertEqual(results.count, 3)
        XCTAssertNil(results[0].message)
        XCTAssertEqual(results[2].message, "127.0.0.1 is a private IP address")
        XCTAssertNil(results[2].countryName)
    }

    func testLookupRoundTripsThroughCodable() throws {
        for file in try Fixture.files(in: "lookup") {
            let original = try Fixture.decode(IPResponse.self, file)
            let copy = try JSONDecoder().decode(IPResponse.self, from: JSONEncoder().encode(original))
            XCTAssertEqual(copy, original, file)
        }
    }

    func testASNDetailRoundTripsThroughCodable() throws {
        let original = try Fixture.decode(ASNDetail.self, Fixture.asnDetail)
        XCTAssertEqual(try JSONDecoder().decode(ASNDetail.self, from: JSONEncoder().encode(original)), original)
    }

    func testEncodingWritesAPIKeysAndAlwaysTheTwoFlags() throws {
        let info = try JSONDecoder().decode(IPResponse.self, from: Fixture.json(["ip": "1.1.1.1", "count": "7"]))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as? [String: Any])
        XCTAssertEqual(object["is_satellite"] as? Bool, false)
        XCTAssertEqual(object["is_anycast"] as? Bool, false)
        XCTAssertEqual(object["ip"] as? String, "1.1.1.1")
        XCTAssertEqual(object["count"] as? Int, 7)
        XCTAssertNil(object["city"], "nil values are left out")
    }

    func testTheFieldNamesAreTheKeysOfAFullAnswer() throws {
        // Every top-level key of a full answer is a field name, and every field name is read.
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: try Fixture.data(Fixture.googleLookup)) as? [String: Any])
        XCTAssertTrue(Set(object.keys).isSubset(of: IPResponse.fieldNames), "\(object.keys)")
        XCTAssertTrue(IPResponse.fieldNames.contains("is_satellite"))
        XCTAssertFalse(IPResponse.fieldNames.contains("message"), "only a rejected bulk slot has it")
        XCTAssertEqual(IPResponse.fieldNames.count, Set(IPResponse.fieldNames).count)
        XCTAssertEqual(
            Set(ASNDetail.fieldNames),
            [
                "asn", "name", "domain", "usage", "registry", "country", "date", "status", "upstream", "downstream",
                "peers", "num_ips", "ipv4_prefixes", "ipv6_prefixes",
            ])
    }
}
