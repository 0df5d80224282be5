import Foundation

/// A language spoken in the country of an IP address (an element of `languages`).
public struct Language: Codable, LenientModel, Hashable, Sendable {
    /// The language's English name (`name`).
    public let name: String?
    /// The language's name in that language (`native`).
    public let native: String?
    /// The ISO 639-1 code; older responses omit it (`code`).
    public let code: String?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(name: String? = nil, native: String? = nil, code: String? = nil) {
        self.name = name
        self.native = native
        self.code = code
    }

    enum CodingKeys: String, CodingKey {
        case name, native, code
    }

    /// Decodes one element of the API's `languages` array; values of an unexpected type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        name = fields.string(.name)
        native = fields.string(.native)
        code = fields.string(.code)
    }
}
