/// What the client checks before it sends anything: input that the API would certainly refuse
/// fails at once with the error the API would give, and costs neither a request nor quota.
///
/// Only the form is checked. Whether an address is private, reserved or unknown, whether a field
/// exists, whether an ASN exists: the API decides those.
enum InputValidation {
    /// The most addresses one `POST /bulk` may carry.
    static let bulkLimit = 100

    static func invalidAddressMessage(_ text: String) -> String {
        "\(text) does not appear to be an IPv4 or IPv6 address"
    }

    /// Throws `badRequest` with the API's own wording unless `text` is an IPv4 or IPv6 address.
    static func checkAddress(_ text: String) throws {
        guard IPAddress(text) != nil else { throw IPDataError.badRequest(invalidAddressMessage(text)) }
    }

    /// The path segment for an ASN: `AS` and its digits, from `"AS15169"`, `"as15169"` or `"15169"`.
    static func asnPath(_ text: String) throws -> String {
        let digits = text.uppercased().hasPrefix("AS") ? text.dropFirst(2) : Substring(text)
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw IPDataError.badRequest(
                "\(text) is not an ASN: expected AS followed by digits, for example AS15169")
        }
        return "AS" + digits
    }

    /// Throws `badRequest` with the API's own wording for an empty or over-long bulk list.
    static func checkBulkCount(_ count: Int) throws {
        if count == 0 { throw IPDataError.badRequest("You did not provide a valid JSON Array.") }
        if count > bulkLimit {
            throw IPDataError.badRequest("Bulk requests should not contain more than 100 IP addresses.")
        }
    }

    /// Throws `badRequest` for an empty field name, which would turn a field lookup into a full one.
    static func checkFieldName(_ field: String) throws {
        if field.isEmpty { throw IPDataError.badRequest("A field name is required, for example asn or country_name.") }
    }
}
