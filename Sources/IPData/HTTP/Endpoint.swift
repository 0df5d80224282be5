import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call of the ipdata API, and how it becomes a `URLRequest`.
enum Endpoint: Sendable {
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
        var request = URLRequest(url: url(baseURL: baseURL, apiKey: apiKey, fields: fields))
        request.httpMethod = method
        request.setValue(apiKey, forHTTPHeaderField: "api-key")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(IPDataClient.userAgent, forHTTPHeaderField: "User-Agent")
        if case .bulk(let addresses) = self {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Self.jsonArray(addresses)
            Platform.prepareBodyRequest(&request)
        }
        return request
    }

    func url(baseURL: URL, apiKey: String, fields: [String]?) -> URL {
        // The base URL may carry a path prefix (https://gateway.example/ipdata): keep it, and
        // drop any query or fragment of its own.
        var text = baseURL.absoluteString
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<end]) }
        while text.hasSuffix("/") { text.removeLast() }
        text += "/"
        text += pathSegments.map(URLText.pathSegment).joined(separator: "/")
        text += "?api-key="
        text += URLText.queryValue(apiKey)
        if let fields, !fields.isEmpty {
            text += "&fields="
            text += fields.map(URLText.queryValue).joined(separator: ",")
        }
        // Every part was percent-encoded above, so the text is always a URL.
        return URL(string: text) ?? baseURL
    }

    /// A JSON array of strings: the body of `POST /bulk`.
    static func jsonArray(_ strings: [String]) -> Data {
        // An array of strings is always valid JSON, so serialization cannot fail.
        (try? JSONSerialization.data(withJSONObject: strings)) ?? Data("[]".utf8)
    }
}
