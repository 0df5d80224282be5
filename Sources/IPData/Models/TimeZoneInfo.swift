import Foundation

/// The time zone of the location of an IP address (the `time_zone` object).
///
/// Named `TimeZoneInfo` so that it does not shadow Foundation's `TimeZone`. Every member can be
/// nil: the API sends an all-`null` object for some addresses.
public struct TimeZoneInfo: Codable, LenientModel, Hashable, Sendable {
    /// The IANA zone name, for example `America/Los_Angeles` (`name`).
    public let name: String?
    /// The abbreviation, for example `PDT`; some zones have only an offset such as `-03` (`abbr`).
    public let abbr: String?
    /// The current UTC offset as `±HHMM`, for example `-0700` (`offset`).
    public let offset: String?
    /// Whether daylight saving time is in effect (`is_dst`).
    public let isDST: Bool?
    /// The local time when the API answered, ISO 8601 with an offset, with or without
    /// microseconds, kept as the API sent it (`current_time`).
    public let currentTime: String?

    /// A value built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil when left out.
    public init(
        name: String? = nil, abbr: String? = nil, offset: String? = nil, isDST: Bool? = nil, currentTime: String? = nil
    ) {
        self.name = name
        self.abbr = abbr
        self.offset = offset
        self.isDST = isDST
        self.currentTime = currentTime
    }

    enum CodingKeys: String, CodingKey {
        case name, abbr, offset
        case isDST = "is_dst"
        case currentTime = "current_time"
    }

    /// Decodes the API's `time_zone` object; values of an unexpected JSON type read as nil.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        name = fields.string(.name)
        abbr = fields.string(.abbr)
        offset = fields.string(.offset)
        isDST = fields.bool(.isDST)
        currentTime = fields.string(.currentTime)
    }
}
