/// The API's own words and limits, written once: the messages of the errors it gives, which the
/// client also throws for input the API would refuse (`IPDataError.badRequest(_:)` and the
/// others carry them), and which the `IPDataTesting` sandbox answers with.
///
/// Each text is the API's, character for character: a trailing period where the API writes one,
/// none where it does not. Compare a message with one of these to tell one refusal from another.
public enum APIMessage {
    /// The most addresses one `POST /bulk` may carry.
    public static let bulkLimit = 100

    /// 400: the path's address is not an IPv4 or IPv6 address.
    public static func invalidAddress(_ text: String) -> String {
        "\(text) does not appear to be an IPv4 or IPv6 address"
    }

    /// 400: a private address (RFC 1918, loopback, link-local, unique local).
    public static func privateAddress(_ text: String) -> String {
        "\(text) is a private IP address"
    }

    /// 400: a reserved address (multicast and the other blocks the API will not look up).
    public static func reservedAddress(_ text: String) -> String {
        "\(text) is a reserved IP address."
    }

    /// 400: a `POST /bulk` body that is not a JSON array of strings, or an empty one.
    public static let invalidBulkBody = "You did not provide a valid JSON Array."

    /// 400: a `POST /bulk` body of more than `bulkLimit` addresses.
    public static let tooManyBulkAddresses = "Bulk requests should not contain more than 100 IP addresses."

    /// 400: a field the lookup object does not have.
    public static func invalidField(_ name: String) -> String {
        "\(name) is not a valid field."
    }

    /// 401: no key, or one the API does not know.
    public static let invalidKey = "You have not provided a valid API Key."

    /// 403: the free plan's daily quota is spent.
    public static let freeQuotaExceeded =
        "You have exceeded your free quota. Upgrade to a paid plan to re-activate your account."

    /// 403: `POST /bulk` from a plan without bulk access.
    public static let bulkNotInPlan = "Upgrade to a paid plan to make bulk requests."

    /// 404: an ASN the API does not know, or text that is not one (`ASBlah`); `asn` as sent,
    /// with its `AS`.
    public static func asnNotFound(_ asn: some StringProtocol) -> String {
        "\(asn) was not found."
    }

    /// Whether `error` is the API's refusal of bulk requests for this plan (a 403 whose message
    /// speaks of bulk requests), rather than a spent quota or a key the API refuses.
    static func isBulkNotInPlan(_ error: IPDataError) -> Bool {
        guard case .forbidden(let message) = error else { return false }
        return message.lowercased().contains("bulk requests")
    }
}
