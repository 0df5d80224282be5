import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension IPDataError {
    /// The line `ipdata` prints for this error, in a record's `error` field or on stderr: the
    /// error's description, with a network failure told by its reason rather than the whole
    /// `NSError` dump, and a refused key saying where it came from (`Configuration.source`).
    var commandLineMessage: String {
        switch self {
        case .unauthorized:
            let advice =
                Configuration.source?.refusedAdvice ?? "check the key: ipdata init, IPDATA_API_KEY or --api-key"
            return "\(description) (\(advice))"
        case .networkError(let error as URLError) where error.code == .badURL && Self.isIPv6Literal(error.failingURL):
            return "Network error: URLSession on Linux cannot reach an IPv6 literal such as [::1] "
                + "(swift-corelibs-foundation issue 5496): use a host name, such as localhost (URLError -1000)"
        case .networkError(let error as URLError):
            return "\(description) (URLError \(error.code.rawValue))"
        case .decodingFailed:
            return "Decoding failed: the answer is not the API's JSON (\(Self.checkTheServer))"
        default:
            return description
        }
    }

    /// What to check when an answer is one no ipdata server sends.
    static let checkTheServer = "check --base-url, or a proxy in between"

    /// Whether `url`'s host is an IPv6 address in brackets.
    private static func isIPv6Literal(_ url: URL?) -> Bool {
        url?.absoluteString.contains("://[") == true
    }

    /// Whether every later lookup would fail the same way, so a run stops at once: a key the API
    /// refuses (401), or an exhausted quota or a plan that does not allow the call (403).
    var stopsTheRun: Bool {
        switch self {
        case .unauthorized, .forbidden: return true
        default: return false
        }
    }

    /// The exit status of a run that this error ended, or of a lookup it failed.
    var exitStatus: ExitStatus {
        switch self {
        case .unauthorized: return .keyRefused
        case .forbidden: return .quotaExhausted
        case .unexpectedStatus(429, _): return .rateLimited
        case .networkError: return .networkFailed
        default: return .lookupFailed
        }
    }
}
