import Foundation

/// The local currency of the country of an IP address (the `currency` object).
public struct Currency: Codable, LenientModel, Hashable, Sendable {
    /// The currency's English name, for example `US Dollar` (`name`).
    public let name: String?
    /// The ISO 4217 code, for example `USD` (`code`).
    public let code: String?
    /// The international symbol, for example `AU$` (`symbol`).
    public let symbol: String?
    /// The symbol used at home, for example `$` (`native`).
    public let native: String?
    /// The plural name, for example `US dollars` (`plural`).
    public let plural: String?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(
        name: String? = nil, code: String? = nil, symbol: String? = nil, native: String? = nil, plural: String? = nil
    ) {
        self.name = name
        self.code = code
        self.symbol = symbol
        self.native = native
        self.plural = plural
    }

    enum CodingKeys: String, CodingKey {
        case name, code, symbol, native, plural
    }

    /// Decodes the API's `currency` object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        name = fields.string(.name)
        code = fields.string(.code)
        symbol = fields.string(.symbol)
        native = fields.string(.native)
        plural = fields.string(.plural)
    }
}
