#if Valkey
import Crypto
import Foundation
import IPData

/// An answer as `ValkeyLookupStore` keeps it on the server: one header line that says which
/// lookup it answers and when it was stored, authenticated with the app's secret when there is
/// one, then the API's JSON as it came.
///
///     ipdata/1 1733070000000 <HMAC-SHA256, 64 hex digits, or -> 8.8.8.8#city,ip
///     {"ip":"8.8.8.8","city":"Mountain View"}
///
/// An entry is read only when it is of this form, answers the key it was read under, is no
/// older than the key's time to live (whatever the server's own expiry says), and carries the
/// right MAC when the store has a secret.
enum StoredEntry {
    /// What every entry starts with.
    static let version = "ipdata/1"

    /// The bytes to store for `json`, the answer to `key`, stored at `now`.
    static func encode(_ json: Data, for key: LookupCacheKey, at now: Date, secret: SymmetricKey?) -> Data {
        let milliseconds = Int64((now.timeIntervalSince1970 * 1_000).rounded())
        let mac = secret.map { hex(authenticationCode(milliseconds: milliseconds, key: key, json: json, secret: $0)) }
        var value = Data("\(version) \(milliseconds) \(mac ?? "-") \(key.description)\n".utf8)
        value.append(json)
        return value
    }

    /// Why a value read from the server is not used.
    enum Refusal: Error, Equatable {
        case notAnEntry
        case anotherKey
        case tooOld
        case notAuthentic
    }

    /// The JSON of `value`, read under `key` at `now`, if it passes every check.
    static func json(
        of value: Data, for key: LookupCacheKey, at now: Date, maximumAge: TimeInterval, secret: SymmetricKey?
    ) -> Result<Data, Refusal> {
        guard let newline = value.firstIndex(of: UInt8(ascii: "\n")),
            let header = String(data: value[value.startIndex..<newline], encoding: .utf8)
        else { return .failure(.notAnEntry) }
        let parts = header.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == version, let milliseconds = Int64(parts[1]) else {
            return .failure(.notAnEntry)
        }
        guard parts[3] == key.description else { return .failure(.anotherKey) }
        let age = now.timeIntervalSince1970 - Double(milliseconds) / 1_000
        // A minute of clock difference between the app's machines is allowed, not more.
        guard age <= maximumAge, age >= -60 else { return .failure(.tooOld) }
        let json = Data(value[value.index(after: newline)...])
        if let secret {
            // Compared in constant time.
            guard let given = bytes(ofHex: parts[2]),
                HMAC<SHA256>.isValidAuthenticationCode(
                    given, authenticating: signed(milliseconds, key, json), using: secret)
            else { return .failure(.notAuthentic) }
        }
        return .success(json)
    }

    /// What the MAC covers: the header without the MAC, then the JSON.
    private static func signed(_ milliseconds: Int64, _ key: LookupCacheKey, _ json: Data) -> Data {
        var message = Data("\(version) \(milliseconds) \(key.description)\n".utf8)
        message.append(json)
        return message
    }

    private static func authenticationCode(
        milliseconds: Int64, key: LookupCacheKey, json: Data, secret: SymmetricKey
    ) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: signed(milliseconds, key, json), using: secret))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(ofHex text: Substring) -> [UInt8]? {
        guard text.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
#endif
