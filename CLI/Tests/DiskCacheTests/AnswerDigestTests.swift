import Foundation
import XCTest

@testable import DiskCache

/// The digest that tells the cache's own rows from damaged or planted ones: XXH64, seeded with
/// the row's key.
final class AnswerDigestTests: XCTestCase {
    /// xxHash's own results (libxxhash 0.8.1, `XXH64(input, length, seed)`).
    func testItIsXXH64() {
        let vectors: [(String, UInt64, UInt64)] = [
            ("", 0, 0xEF46_DB37_51D8_E999),
            ("abc", 0, 0x44BC_2CF5_AD77_0999),
            ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", 0, 0xB35E_125D_D455_5E6D),
            ("0123456789abcdefghijklmnopqrstuvwxyz", 7, 0x245A_CD11_A445_E8DA),
            ("hello world!", 12_345, 0xF0FC_E76F_68E3_3DDD),
        ]
        for (text, seed, expected) in vectors {
            let digest = Data(text.utf8).withUnsafeBytes { AnswerDigest.xxh64($0, seed: seed) }
            XCTAssertEqual(digest, expected, text)
        }
    }

    /// One changed byte, or the same bytes under another address, fields or scope, is another digest.
    func testTheDigestCoversTheBytesAndTheirKey() {
        let json = Data(#"{"ip":"8.8.8.8","country_code":"US"}"#.utf8)
        let scope = Data(repeating: 7, count: 32)
        let digest = AnswerDigest.digest(of: json, scope: scope, address: "8.8.8.8", fields: "")
        XCTAssertEqual(digest, AnswerDigest.digest(of: json, scope: scope, address: "8.8.8.8", fields: ""))
        var changed = json
        changed[changed.count - 3] = UInt8(ascii: "K")
        XCTAssertNotEqual(digest, AnswerDigest.digest(of: changed, scope: scope, address: "8.8.8.8", fields: ""))
        XCTAssertNotEqual(digest, AnswerDigest.digest(of: json, scope: scope, address: "8.8.4.4", fields: ""))
        XCTAssertNotEqual(digest, AnswerDigest.digest(of: json, scope: scope, address: "8.8.8.8", fields: "ip"))
        XCTAssertNotEqual(
            digest, AnswerDigest.digest(of: json, scope: Data(repeating: 8, count: 32), address: "8.8.8.8", fields: ""))
    }
}
