import Foundation

/// What a lookup is kept under: the address in its canonical form (`2001:DB8::1` and
/// `2001:db8:0:0:0:0:0:1` are one key) and the set of requested fields.
public struct LookupCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The address in canonical form: lower-case, IPv6 compressed.
    public let address: String
    /// The requested fields, sorted and without repeats; empty for all fields.
    public let fields: [String]
    /// The key as text, `address#field,field` (`8.8.8.8#` for all fields): what `LookupCache`
    /// files entries under, and the name a network store builds its keys from.
    public let description: String

    /// The key of a lookup of `address` for `fields` (nil or empty for all); nil when `address`
    /// is not an IPv4 or IPv6 address.
    public init?(address: String, fields: [String]?) {
        guard let canonical = IPAddress(address)?.description else { return nil }
        let selection = fields.map { Set($0).sorted() } ?? []
        self.address = canonical
        self.fields = selection
        self.description = canonical + "#" + selection.joined(separator: ",")
    }

    /// Whether the answer holds threat data, which the API refreshes about every 15 minutes: a
    /// lookup of all fields, or one that names `threat`. A store may keep such answers for less time.
    public var includesThreat: Bool {
        fields.isEmpty || fields.contains("threat")
    }
}
