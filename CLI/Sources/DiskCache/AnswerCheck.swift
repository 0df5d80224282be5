import Foundation
import IPData

/// What makes bytes an answer the cache keeps and serves: a JSON object of at most
/// `largestAnswer` bytes that is no error (`{"message": …}`), about the address it is kept under.
/// Checked when an answer is stored (with `AnswerJSON`).
enum AnswerCheck {
    /// The most bytes of JSON an entry may hold: 64 KiB. The API's largest answers (all fields,
    /// threat data with blocklists) take a few KB; a larger one is refused, not stored.
    static let largestAnswer = 64 * 1024

    /// Whether an answer whose `ip` is `ip` (nil when it has none) answers a lookup of `key`.
    static func answers(ip: String?, key: LookupCacheKey) -> Bool {
        guard let ip else { return !key.fields.isEmpty && !key.fields.contains("ip") }
        return LookupCacheKey(address: ip, fields: nil)?.address == key.address
    }
}
