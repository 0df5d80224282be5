import Foundation

/// Percent-encoding for the two places caller text enters a URL: one path segment, one query value.
///
/// Everything except RFC 3986 unreserved characters is encoded, so no input can add a path
/// segment (`/`), a query item (`?`, `&`, `=`), a fragment (`#`) or an escape of its own (`%`).
package enum URLText {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// In a path segment `:` is allowed as is, which keeps IPv6 addresses readable.
    private static let segmentCharacters = unreserved.union(CharacterSet(charactersIn: ":"))

    package static func pathSegment(_ text: String) -> String {
        // "." and ".." are dot-segments that a URL normaliser would resolve, so encode their dots.
        if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
        return text.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? ""
    }

    package static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
