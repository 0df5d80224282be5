import Crypto
import Foundation

/// Whose answers an entry holds: the sandbox's sample data, or one API (its base URL) for one
/// key, since plans differ in what they answer. Entries of one scope never answer another's.
///
/// The database keeps only `digest`, 16 bytes of a SHA-256 over the scope's text, whose key part
/// is itself a SHA-256 of the key: neither the key nor its digest is in any file.
package struct CacheScope: Sendable, Hashable {
    /// What the database files entries under.
    package let digest: Data

    /// The sandbox's sample answers, never served to a run against an API.
    package static let sandbox = CacheScope(text: "sandbox")

    /// Answers of the API at `baseURL` for `key`; a trailing slash of the URL makes no other scope.
    package static func api(baseURL: URL, key: String) -> CacheScope {
        var url = baseURL.absoluteString
        while url.hasSuffix("/") { url.removeLast() }
        return CacheScope(text: "api " + url + " " + keyDigest(key))
    }

    /// The hexadecimal SHA-256 of the key that the scope's text holds (never stored itself).
    static func keyDigest(_ key: String) -> String {
        SHA256.hash(data: Data(("ipdata API key\n" + key).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private init(text: String) {
        digest = Data(SHA256.hash(data: Data(("ipdata-cache scope 1\n" + text).utf8)).prefix(16))
    }
}
