import Foundation

/// Percent-encoding for the two places caller text enters a URL: one path segment, one query value.
///
/// Everything except RFC 3986 unreserved characters is encoded, so no input can add a path
/// segment (`/`), a query item (`?`, `&`, `=`), a fragment (`#`) or an escape of its own (`%`).
enum URLText {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// In a path segment `:` is allowed as is, which keeps IPv6 addresses readable.
    private static let segmentCharacters = unreserved.union(CharacterSet(charactersIn: ":"))

    static func pathSegment(_ text: String) -> String {
        // "." and ".." are dot-segments that a URL normaliser would resolve, so encode their dots.
        if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
        // An address (or a field name) needs no encoding: checked byte by byte, which costs far
        // less than Foundation's encoding of a string that needs none.
        if text.utf8.allSatisfy(isSegmentByte) { return text }
        return text.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? ""
    }

    /// Whether `byte` stands for itself in a path segment: an unreserved character or `:`.
    private static func isSegmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
