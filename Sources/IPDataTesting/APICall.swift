import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call of the ipdata API, as the sandbox reads it from a request, the way the API does.
enum APICall: Equatable {
    /// `GET /`: the caller's own address.
    case ownAddress
    /// `GET /{ip}`.
    case address(String)
    /// `GET /{ip}/{field}`: one field, answered as bare JSON or plain text.
    case field(address: String, field: String)
    /// `POST /bulk` with a JSON array of addresses.
    case bulk([String])
    /// `GET /AS{number}`.
    case asn(String)

    /// The call that a request with `method`, percent-decoded `pathSegments` and `body` makes, or
    /// nil when it makes none (the API's 404). A `POST /bulk` whose body is not a non-empty JSON
    /// array of strings throws the API's 400 for it.
    ///
    /// A single segment is an ASN when it is `AS` and digits, as the client writes one
    /// (`ASNumber.pathSegment(_:)`); any other is an address, for the API to judge.
    init?(method: String, pathSegments: [String], body: Data?) throws {
        switch (method, pathSegments.count) {
        case ("GET", 0):
            self = .ownAddress
        case ("POST", 1) where pathSegments[0] == "bulk":
            guard let body, let array = try? JSONSerialization.jsonObject(with: body) as? [Any],
                !array.isEmpty, case let strings = array.compactMap({ $0 as? String }), strings.count == array.count
            else { throw IPDataError.badRequest(APIMessage.invalidBulkBody) }
            self = .bulk(strings)
        case ("GET", 1):
            let segment = pathSegments[0]
            self = ASNumber.pathSegment(segment) == segment ? .asn(segment) : .address(segment)
        case ("GET", 2):
            self = .field(address: pathSegments[0], field: pathSegments[1])
        default:
            return nil
        }
    }

    /// The field names of a request's `fields=a,b` query, or nil when it asks for every field.
    static func fields(in url: URL) -> [String]? {
        let value = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "fields" }?.value
        return value.flatMap { $0.isEmpty ? nil : $0.split(separator: ",").map(String.init) }
    }
}
