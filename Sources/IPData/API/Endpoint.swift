import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call of the ipdata API, and how it becomes a `URLRequest`.
enum Endpoint: Sendable, Equatable {
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

    var method: String {
        if case .bulk = self { return "POST" }
        return "GET"
    }

    /// The addresses the request of this call carries: a bulk request's, 1 for an address or a
    /// field, 0 for the caller's own address and an ASN.
    var addressCount: Int {
        switch self {
        case .ownAddress, .asn: return 0
        case .address, .field: return 1
        case .bulk(let addresses): return addresses.count
        }
    }

    var pathSegments: [String] {
        switch self {
        case .ownAddress: return []
        case .address(let address): return [address]
        case .field(let address, let field): return [address, field]
        case .bulk: return ["bulk"]
        case .asn(let asn): return [asn]
        }
    }

    /// The request for this call. The key goes in both the `api-key` query parameter (documented
    /// for every call) and the `api-key` header; `fields`, when not empty, in `fields=a,b`.
    func urlRequest(baseURL: URL, apiKey: String, fields: [String]?) -> URLRequest {
        urlRequest(RequestBase(baseURL: baseURL, apiKey: apiKey), fields: fields)
    }

    /// The request for this call to `base`: see `urlRequest(baseURL:apiKey:fields:)`.
    func urlRequest(_ base: RequestBase, fields: [String]?) -> URLRequest {
        var request = URLRequest(url: url(base, fields: fields))
        request.httpMethod = method
        request.setValue(base.apiKey, forHTTPHeaderField: "api-key")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(IPDataClient.userAgent, forHTTPHeaderField: "User-Agent")
        if case .bulk(let addresses) = self {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Self.jsonArray(addresses)
        }
        return request
    }

    func url(baseURL: URL, apiKey: String, fields: [String]?) -> URL {
        url(RequestBase(baseURL: baseURL, apiKey: apiKey), fields: fields)
    }

    func url(_ base: RequestBase, fields: [String]?) -> URL {
        var text = base.path
        text += pathSegments.map(URLText.pathSegment).joined(separator: "/")
        text += base.keyQuery
        if let fields, !fields.isEmpty {
            text += "&fields="
            text += fields.map(URLText.queryValue).joined(separator: ",")
        }
        // Every part was percent-encoded, so the text is always a URL.
        return URL(string: text) ?? base.baseURL
    }

    /// What every request of a client starts with, worked out once: the base URL's text up to
    /// its path, and the key as a query parameter.
    struct RequestBase: Sendable {
        let baseURL: URL
        let apiKey: String
        /// The base URL with one `/` after its path, without a query or fragment of its own: a
        /// gateway's path prefix (`https://gateway.example/ipdata/`) is kept.
        let path: String
        /// `?api-key=` and the key, percent-encoded.
        let keyQuery: String

        init(baseURL: URL, apiKey: String) {
            var text = baseURL.absoluteString
            if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<end]) }
            while text.hasSuffix("/") { text.removeLast() }
            self.baseURL = baseURL
            self.apiKey = apiKey
            self.path = text + "/"
            self.keyQuery = "?api-key=" + URLText.queryValue(apiKey)
        }
    }

    /// A JSON array of strings: the body of `POST /bulk`.
    static func jsonArray(_ strings: [String]) -> Data {
        // An array of strings is always valid JSON, so serialization cannot fail.
        (try? JSONSerialization.data(withJSONObject: strings)) ?? Data("[]".utf8)
    }
}
