import Foundation
import IPData

/// What makes bytes an answer the cache keeps and serves: a JSON object of at most
/// `largestAnswer` bytes that is no error (`{"message": …}`), about the address it is kept under.
/// Checked when an answer is stored and again when it is read back.
enum AnswerCheck {
    /// The most bytes of JSON an entry may hold: 64 KiB. The API's largest answers (all fields,
    /// threat data with blocklists) take a few KB; a larger one is refused, not stored.
    static let largestAnswer = 64 * 1024

    /// Whether `json` has an answer's size and shape: `{`…`}` (with white space around), at most
    /// `largestAnswer` bytes.
    static func hasAnswerShape(_ json: Data) -> Bool {
        guard json.count >= 2, json.count <= largestAnswer else { return false }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        return json.first(where: { !isSpace($0) }) == UInt8(ascii: "{")
            && json.last(where: { !isSpace($0) }) == UInt8(ascii: "}")
    }

    /// Whether `response` answers a lookup of `key`: it carries no `message` (the API's word for
    /// an error, even in a 200 answer), and its `ip` is `key`'s address. A lookup of all fields,
    /// or of fields that name `ip`, must carry the address; any other may leave it out.
    static func answers(_ response: IPResponse, key: LookupCacheKey) -> Bool {
        response.message == nil && answers(ip: response.ip, key: key)
    }

    /// Whether an answer whose `ip` is `ip` (nil when it has none) answers a lookup of `key`.
    static func answers(ip: String?, key: LookupCacheKey) -> Bool {
        guard let ip else { return !key.fields.isEmpty && !key.fields.contains("ip") }
        return LookupCacheKey(address: ip, fields: nil)?.address == key.address
    }
}
