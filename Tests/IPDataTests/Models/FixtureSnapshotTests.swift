import Foundation
import XCTest

@testable import IPData

/// Every model fixture decodes to exactly what it decoded to in 1.1.0: the encoding of each decoded
/// value, compared with the one kept in `Fixtures/decoded-1.1.0.json` (written from 1.1.0's models).
final class FixtureSnapshotTests: XCTestCase {
    /// The model each fixture holds; `errors/` and the plain-text field body hold none.
    private static func decode(_ path: String) throws -> Any? {
        let data = try Fixture.data(path)
        let name = (path as NSString).lastPathComponent
        let folder = path.prefix { $0 != "/" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoded: Data
        switch folder {
        case "lookup":
            encoded = try encoder.encode(JSONDecoder().decode(IPResponse.self, from: data))
        case "bulk":
            encoded = try encoder.encode(JSONDecoder().decode([IPResponse].self, from: data))
        case "asn":
            encoded = try encoder.encode(JSONDecoder().decode(ASNDetail.self, from: data))
        case "threat" where name.contains("threat-subendpoint"):
            encoded = try encoder.encode(JSONDecoder().decode(Threat.self, from: data))
        case "threat":
            encoded = try encoder.encode(JSONDecoder().decode(IPResponse.self, from: data))
        case "fields" where name.hasSuffix(".txt"):
            return nil
        case "fields" where name.contains("-asn.single-field-body"):
            encoded = try encoder.encode(JSONDecoder().decode(ASN.self, from: data))
        case "fields" where name.contains("-company.single-field-body"):
            encoded = try encoder.encode(JSONDecoder().decode(Company.self, from: data))
        case "fields" where name.hasPrefix("carrier.single-field-body"):
            encoded = try encoder.encode(JSONDecoder().decode(Carrier.self, from: data))
        case "fields":
            encoded = try encoder.encode(JSONDecoder().decode(IPResponse.self, from: data))
        default:
            return nil
        }
        return try JSONSerialization.jsonObject(with: encoded)
    }

    private static let folders = ["lookup", "bulk", "asn", "threat", "fields"]

    private static func decodedFixtures() throws -> [String: Any] {
        var decoded: [String: Any] = [:]
        for folder in folders {
            for path in try Fixture.files(in: folder) {
                decoded[path] = try decode(path)
            }
        }
        return decoded
    }

    func testEveryModelFixtureDecodesAsIn110() throws {
        let snapshot = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Fixture.data("decoded-1.1.0.json")) as? [String: Any])
        let decoded = try Self.decodedFixtures()
        XCTAssertEqual(Set(decoded.keys), Set(snapshot.keys), "a fixture was added or removed: see Fixtures/README.md")
        for (path, value) in decoded.sorted(by: { $0.key < $1.key }) {
            let kept = try Self.text(XCTUnwrap(snapshot[path], path))
            let now = try Self.text(value)
            XCTAssertEqual(now, kept, "\(path) decodes to something else than in 1.1.0")
        }
    }

    /// A JSON value as sorted text: both sides go through the same serialiser, so that only a
    /// different value, never a different way of writing a number, tells them apart.
    private static func text(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
