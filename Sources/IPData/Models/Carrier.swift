import Foundation

/// The mobile carrier of an IP address (the `carrier` object, present only for mobile networks).
public struct Carrier: Codable, LenientModel, Hashable, Sendable {
    /// The carrier's name (`name`).
    public let name: String?
    /// The mobile country code, kept as text because leading zeros matter (`mcc`).
    public let mcc: String?
    /// The mobile network code, kept as text because leading zeros matter (`mnc`).
    public let mnc: String?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(name: String? = nil, mcc: String? = nil, mnc: String? = nil) {
        self.name = name
        self.mcc = mcc
        self.mnc = mnc
    }

    enum CodingKeys: String, CodingKey {
        case name, mcc, mnc
    }

    /// Decodes the API's `carrier` object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        name = fields.string(.name)
        mcc = fields.string(.mcc)
        mnc = fields.string(.mnc)
    }
}
