import Foundation

/// Everything the API knows about one IP address: the answer to a lookup.
///
/// Almost every property is optional: the API leaves keys out or sends `null` depending on the
/// address and the plan, and a `fields:` selection returns only the keys asked for. In a bulk
/// lookup, an address the API rejected carries the reason in `message` and nothing else but `ip`.
public struct IPResponse: Codable, LenientModel, Hashable, Sendable {
    /// The IP address the answer is about (`ip`).
    public internal(set) var ip: String?
    /// The address is located in the European Union (`is_eu`).
    public let isEU: Bool?
    /// The address belongs to a satellite internet provider (`is_satellite`).
    ///
    /// The API sends the key only when it is true, so this reads false whenever it is absent.
    public let isSatellite: Bool
    /// The address is anycast: announced from several places at once (`is_anycast`).
    ///
    /// The API sends the key only when it is true, so this reads false whenever it is absent.
    public let isAnycast: Bool
    /// The city (`city`).
    public let city: String?
    /// The region or state (`region`).
    public let region: String?
    /// The region's code, for example `CA` (`region_code`).
    public let regionCode: String?
    /// The kind of region, for example `state` or `province`; absent when `region` is nil (`region_type`).
    public let regionType: String?
    /// The country's English name (`country_name`).
    public let countryName: String?
    /// The ISO 3166-1 alpha-2 country code, for example `US` (`country_code`).
    public let countryCode: String?
    /// The continent's name (`continent_name`).
    public let continentName: String?
    /// The two-letter continent code, for example `NA` (`continent_code`).
    public let continentCode: String?
    /// Latitude in decimal degrees (`latitude`).
    public let latitude: Double?
    /// Longitude in decimal degrees (`longitude`).
    public let longitude: Double?
    /// The postal or ZIP code (`postal`).
    public let postal: String?
    /// The international calling code without `+`, for example `1` (`calling_code`).
    public let callingCode: String?
    /// The URL of an image of the country's flag (`flag`).
    public let flag: String?
    /// The country's flag as an emoji (`emoji_flag`).
    public let emojiFlag: String?
    /// The flag emoji's Unicode code points, for example `U+1F1FA U+1F1F8` (`emoji_unicode`).
    public let emojiUnicode: String?
    /// The autonomous system that announces the address (`asn`).
    public let asn: ASN?
    /// The organisation that owns the address (`company`).
    public let company: Company?
    /// The mobile carrier; present only for mobile networks (`carrier`).
    public let carrier: Carrier?
    /// The languages spoken in the country (`languages`).
    public let languages: [Language]?
    /// The local currency (`currency`).
    public let currency: Currency?
    /// The local time zone (`time_zone`).
    public let timeZone: TimeZoneInfo?
    /// Threat intelligence (`threat`).
    public let threat: Threat?
    /// How many requests the API key made in the last 24 hours (`count`).
    ///
    /// The API sends this as a string (`"1506"`) or a number; both decode.
    public let count: Int?
    /// Why the API rejected this address in a bulk lookup, for example
    /// `127.0.0.1 is a private IP address` (`message`); nil for every address it answered.
    public let message: String?

    /// An answer built from its parts, for a SwiftUI preview or a test of your own code; values
    /// the API sends come from decoding instead. Every parameter is its property, nil (or false)
    /// when left out.
    public init(
        ip: String? = nil, isEU: Bool? = nil, isSatellite: Bool = false, isAnycast: Bool = false, city: String? = nil,
        region: String? = nil, regionCode: String? = nil, regionType: String? = nil, countryName: String? = nil,
        countryCode: String? = nil, continentName: String? = nil, continentCode: String? = nil, latitude: Double? = nil,
        longitude: Double? = nil, postal: String? = nil, callingCode: String? = nil, flag: String? = nil,
        emojiFlag: String? = nil, emojiUnicode: String? = nil, asn: ASN? = nil, company: Company? = nil,
        carrier: Carrier? = nil, languages: [Language]? = nil, currency: Currency? = nil, timeZone: TimeZoneInfo? = nil,
        threat: Threat? = nil, count: Int? = nil, message: String? = nil
    ) {
        self.ip = ip
        self.isEU = isEU
        self.isSatellite = isSatellite
        self.isAnycast = isAnycast
        self.city = city
        self.region = region
        self.regionCode = regionCode
        self.regionType = regionType
        self.countryName = countryName
        self.countryCode = countryCode
        self.continentName = continentName
        self.continentCode = continentCode
        self.latitude = latitude
        self.longitude = longitude
        self.postal = postal
        self.callingCode = callingCode
        self.flag = flag
        self.emojiFlag = emojiFlag
        self.emojiUnicode = emojiUnicode
        self.asn = asn
        self.company = company
        self.carrier = carrier
        self.languages = languages
        self.currency = currency
        self.timeZone = timeZone
        self.threat = threat
        self.count = count
        self.message = message
    }

    /// The result for an address that got no answer of its own: only `ip` and `message` are set.
    init(rejected ip: String, message: String?) {
        self.init(ip: ip, message: message)
    }

    /// The model of an answer kept as the API's bytes and not decoded
    /// (`LookupStreamOptions.keepsJSON`): only `ip` is set.
    init(undecoded ip: String) {
        self.init(ip: ip)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case ip
        case isEU = "is_eu"
        case isSatellite = "is_satellite"
        case isAnycast = "is_anycast"
        case city, region
        case regionCode = "region_code"
        case regionType = "region_type"
        case countryName = "country_name"
        case countryCode = "country_code"
        case continentName = "continent_name"
        case continentCode = "continent_code"
        case latitude, longitude, postal
        case callingCode = "calling_code"
        case flag
        case emojiFlag = "emoji_flag"
        case emojiUnicode = "emoji_unicode"
        case asn, company, carrier, languages, currency
        case timeZone = "time_zone"
        case threat, count, message
    }

    /// The API's names of the top-level fields of a lookup, which `fields` selects (`ip`,
    /// `city`, `threat`…): every key this type reads but `message`, which only an address
    /// rejected in a bulk lookup carries. A name the API does not know is refused with a 400.
    public static let fieldNames: [String] = CodingKeys.allCases.filter { $0 != .message }.map(\.rawValue)

    /// Decodes a lookup object. Unknown keys are ignored, and a value of an unexpected JSON type
    /// is converted where its meaning is clear or read as nil, so that one odd field never fails
    /// the whole answer. Only a value that is not a JSON object throws.
    public init(from decoder: Decoder) throws {
        self.init(fields: try ContainerFields<CodingKeys>(decoder))
    }

    init(fields: some LenientFields<CodingKeys>) {
        ip = fields.string(.ip)
        isEU = fields.bool(.isEU)
        isSatellite = fields.bool(.isSatellite) ?? false
        isAnycast = fields.bool(.isAnycast) ?? false
        city = fields.string(.city)
        region = fields.string(.region)
        regionCode = fields.string(.regionCode)
        regionType = fields.string(.regionType)
        countryName = fields.string(.countryName)
        countryCode = fields.string(.countryCode)
        continentName = fields.string(.continentName)
        continentCode = fields.string(.continentCode)
        latitude = fields.double(.latitude)
        longitude = fields.double(.longitude)
        postal = fields.string(.postal)
        callingCode = fields.string(.callingCode)
        flag = fields.string(.flag)
        emojiFlag = fields.string(.emojiFlag)
        emojiUnicode = fields.string(.emojiUnicode)
        asn = fields.object(ASN.self, .asn)
        company = fields.object(Company.self, .company)
        carrier = fields.object(Carrier.self, .carrier)
        languages = fields.objects(Language.self, .languages)
        currency = fields.object(Currency.self, .currency)
        timeZone = fields.object(TimeZoneInfo.self, .timeZone)
        threat = fields.object(Threat.self, .threat)
        count = fields.integer(.count)
        message = fields.string(.message)
    }
}
