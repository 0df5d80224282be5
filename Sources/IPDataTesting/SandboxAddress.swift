import Foundation

/// How the sandbox tells private, reserved, public and invalid addresses apart, as the API does.
enum SandboxAddress {
    enum Kind { case invalid, `private`, reserved, `public` }

    static func classify(_ text: String) -> Kind {
        if let octets = ipv4(text) {
            switch (octets[0], octets[1]) {
            case (10, _), (127, _), (169, 254), (192, 168), (0, _): return .private
            case (172, 16...31): return .private
            case (224...255, _): return .reserved
            default: return .public
            }
        }
        let lower = text.lowercased()
        guard lower.contains(":"), lower.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
            return .invalid
        }
        if lower == "::1" || lower.hasPrefix("fc") || lower.hasPrefix("fd") || lower.hasPrefix("fe8")
            || lower.hasPrefix("fe9") || lower.hasPrefix("fea") || lower.hasPrefix("feb")
        {
            return .private
        }
        if lower.hasPrefix("ff") { return .reserved }
        return .public
    }

    private static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = Int(part), value <= 255 else {
                return nil
            }
            return value
        }
        return octets.count == 4 ? octets : nil
    }
}
