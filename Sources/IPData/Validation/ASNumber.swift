/// How text names an autonomous system, for `IPDataClient.lookupASN(_:)` and the `IPDataTesting`
/// sandbox alike: `AS15169`, `as15169` or `15169`, that is an optional `AS` in any letter case
/// and 1 to 10 ASCII digits. Anything else (`ASBlah`, `AS 1`, `AS١٥`) names none.
public enum ASNumber {
    /// `AS` and the digits, the form the API's path takes (`/AS15169`), or nil when `text` names
    /// no autonomous system.
    public static func pathSegment(_ text: some StringProtocol) -> String? {
        let digits = text.utf8.count >= 2 && text.uppercased().hasPrefix("AS") ? text.dropFirst(2) : text[...]
        guard (1...10).contains(digits.utf8.count),
            digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return "AS" + digits
    }

    /// Whether `text` names an autonomous system.
    public static func isASN(_ text: some StringProtocol) -> Bool {
        pathSegment(text) != nil
    }
}
