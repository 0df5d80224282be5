import Foundation
import XCTest

/// The API sample bodies under `Fixtures/` (see `Fixtures/README.md` for each one's origin).
enum Fixture {
    static let googleLookup = "lookup/8.8.8.8.SDK-AUTHORED.ipdata-swift-tests-2026.json"
    static let satelliteLookup = "lookup/143.105.40.17.satellite.SYNTHETIC.json"
    static let anycastLookup = "lookup/104.16.132.229.anycast-dated-blocklists.SYNTHETIC.json"
    static let torLookup = "lookup/185.220.101.1.tor.SYNTHETIC.json"
    static let legacyLookup = "lookup/76.14.47.42.go-sdk-2019.json"
    static let mobileLookup = "lookup/69.78.70.144.python-readme-2022.json"
    static let ipv6Lookup = "lookup/2001-4860-4860--8844.SYNTHETIC.ipdata-java-fixture-2026.json"
    static let bulkWithPrivateIP = "bulk/bulk-with-private-ip.go-sdk-2019.json"
    static let bulkPair = "bulk/bulk-8.8.8.8_1.1.1.1.python-readme-2022.json"
    static let asnDetail = "asn/AS15169.SDK-AUTHORED.ipdata-swift-tests-2026.json"
    static let asnField = "fields/8.8.8.8-asn.single-field-body.python-readme-2022.json"
    static let countryNameField = "fields/8.8.8.8-country_name.single-field-body.txt"

    static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }

    /// Every fixture in one folder of `Fixtures/`, by name: its `.json` and `.txt` files only, so
    /// that what a file manager leaves behind (`.DS_Store` on a Mac, editor backups) is no fixture.
    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
            .filter(isFixture).sorted().map { "\(folder)/\($0)" }
    }

    /// Whether a file of that name in `Fixtures/` is a fixture.
    static func isFixture(_ name: String) -> Bool {
        !name.hasPrefix(".") && (name.hasSuffix(".json") || name.hasSuffix(".txt"))
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ path: String) throws -> Value {
        try JSONDecoder().decode(type, from: data(path))
    }

    /// A lookup-shaped JSON object (or array), written inline for one test.
    static func json(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }
}
