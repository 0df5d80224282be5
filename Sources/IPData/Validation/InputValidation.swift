/// What the client checks before it sends anything: input that the API would certainly refuse
/// fails at once with the error the API would give, and costs neither a request nor quota.
/// (An empty field name, which the API would answer with a whole lookup, is refused in the
/// client's own words.)
///
/// Only the form is checked. Whether an address is private, reserved or unknown, whether a field
/// exists, whether an ASN exists: the API decides those.
enum InputValidation {
    /// Throws `badRequest` with the API's own wording unless `text` is an IPv4 or IPv6 address.
    static func checkAddress(_ text: String) throws {
        guard IPAddress(text) != nil else { throw IPDataError.badRequest(APIMessage.invalidAddress(text)) }
    }

    /// The path segment for an ASN (see `ASNumber`), or what the API answers for anything else
    /// (and what 1.0.1 surfaced): `notFound("AS<input> was not found.")`.
    static func asnPath(_ text: String) throws -> String {
        guard let path = ASNumber.pathSegment(text) else {
            let number = text.uppercased().hasPrefix("AS") ? text.dropFirst(2) : Substring(text)
            throw IPDataError.notFound(APIMessage.asnNotFound("AS" + number))
        }
        return path
    }

    /// Throws `badRequest` with the API's own wording for an empty or over-long bulk list.
    static func checkBulkCount(_ count: Int) throws {
        if count == 0 { throw IPDataError.badRequest(APIMessage.invalidBulkBody) }
        if count > APIMessage.bulkLimit { throw IPDataError.badRequest(APIMessage.tooManyBulkAddresses) }
    }

    /// Throws `badRequest` for an empty field name, which would turn a field lookup into a full one.
    static func checkFieldName(_ field: String) throws {
        if field.isEmpty { throw IPDataError.badRequest("A field name is required, for example asn or country_name.") }
    }
}
