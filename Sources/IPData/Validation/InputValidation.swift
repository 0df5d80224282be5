/// What the client checks before it sends anything: input that the API would certainly refuse
/// fails at once with the error the API would give, and costs neither a request nor quota.
/// (An empty field name, which the API would answer with a whole lookup, is refused in the
/// client's own words.)
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
        guard IPAddress.isValid(text) else { throw IPDataError.badRequest(invalidAddressMessage(text)) }
    }

    /// The path segment for an ASN: `AS` and its digits, from `"AS15169"`, `"as15169"` or `"15169"`.
    ///
    /// Anything else throws what the API answers for it (and what 1.0.1 surfaced):
    /// `notFound("AS<input> was not found.")`.
    static func asnPath(_ text: String) throws -> String {
        let number = text.uppercased().hasPrefix("AS") ? text.dropFirst(2) : Substring(text)
        guard !number.isEmpty, number.count <= 10, number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw IPDataError.notFound("AS\(number) was not found.")
        }
        return "AS" + number
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
