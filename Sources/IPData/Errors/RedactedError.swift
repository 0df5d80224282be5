import Foundation

/// An error whose text had to be redacted; only the redacted text is kept, and it is also the
/// error's `localizedDescription`.
struct RedactedError: LocalizedError, CustomStringConvertible, Sendable {
    let text: String
    var description: String { text }
    var errorDescription: String? { text }
}
