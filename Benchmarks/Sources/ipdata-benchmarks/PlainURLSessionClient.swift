import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The floor: what a hand-written client does with URLSession and JSONDecoder, and nothing else
/// (no validation, no redaction, no coalescing, no tolerant decoding).
final class PlainURLSessionClient: Sendable {
    let base: String
    let key: String
    let session: URLSession

    /// Whether requests go through a data task with a completion handler instead of URLSession's
    /// async `data(for:)`.
    let completionHandler: Bool

    init(base: URL, key: String, withDelegate: Bool = false, completionHandler: Bool = false) {
        self.base = base.absoluteString
        self.key = key
        self.completionHandler = completionHandler
        session = URLSession(
            configuration: .default, delegate: withDelegate ? EmptyDelegate() : nil, delegateQueue: nil)
    }

    func lookup(_ ip: String) async -> Outcome {
        var request = URLRequest(url: URL(string: "\(base)/\(ip)?api-key=\(key)")!)
        request.setValue(key, forHTTPHeaderField: "api-key")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        do {
            let (data, response) = try await send(request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { return .failed }
            _ = try JSONDecoder().decode(PlainLookup.self, from: data)
            return .succeeded
        } catch let error as URLError where error.code == .timedOut {
            return .timedOut
        } catch {
            return .failed
        }
    }

    /// URLSession's own async `data(for:)`; Swift 5.9 and 5.10 on Linux have none, so there a
    /// data task with a continuation stands in for it.
    private func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        if completionHandler { return try await Self.dataTask(session, request) }
        #if canImport(FoundationNetworking) && compiler(<6.0)
        return try await Self.dataTask(session, request)
        #else
        return try await session.data(for: request)
        #endif
    }

    /// A data task with a completion handler and a continuation: what a client must use on Linux
    /// to cancel without the deadlock of `data(for:)` (the SDK does; see its `Platform`). On Linux
    /// the completion handler runs on the session's delegate queue, where `data(for:)` resumes
    /// its caller on URLSession's own work queue.
    static func dataTask(_ session: URLSession, _ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let data, let response {
                    continuation.resume(returning: (data, response))
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }.resume()
        }
    }
}

/// The lookup object as plain synthesized Codable types with explicit keys.
struct PlainLookup: Decodable {
    struct ASN: Decodable { let asn, name, domain, route, type: String? }
    struct Company: Decodable { let name, domain, network, type: String? }
    struct Carrier: Decodable { let name, mcc, mnc: String? }
    struct Language: Decodable { let name, native, code: String? }
    struct Currency: Decodable { let name, code, symbol, native, plural: String? }
    struct Zone: Decodable {
        let name, abbr, offset: String?
        let isDST: Bool?
        let currentTime: String?
        enum CodingKeys: String, CodingKey {
            case name, abbr, offset
            case isDST = "is_dst"
            case currentTime = "current_time"
        }
    }
    struct Blocklist: Decodable {
        let name, site, type: String?
    }
    struct Scores: Decodable {
        let vpnScore, proxyScore, threatScore, trustScore: Int?
        enum CodingKeys: String, CodingKey {
            case vpnScore = "vpn_score"
            case proxyScore = "proxy_score"
            case threatScore = "threat_score"
            case trustScore = "trust_score"
        }
    }
    struct Threat: Decodable {
        let isTor, isVPN, isProxy, isDatacenter, isAnonymous, isKnownAttacker, isKnownAbuser, isThreat, isBogon: Bool?
        let blocklists: [Blocklist]?
        let scores: Scores?
        enum CodingKeys: String, CodingKey {
            case isTor = "is_tor"
            case isVPN = "is_vpn"
            case isProxy = "is_proxy"
            case isDatacenter = "is_datacenter"
            case isAnonymous = "is_anonymous"
            case isKnownAttacker = "is_known_attacker"
            case isKnownAbuser = "is_known_abuser"
            case isThreat = "is_threat"
            case isBogon = "is_bogon"
            case blocklists, scores
        }
    }

    let ip, city, region, regionCode, countryName, countryCode, continentName, continentCode: String?
    let isEU: Bool?
    let latitude, longitude: Double?
    let postal, callingCode, flag, emojiFlag, emojiUnicode: String?
    let asn: ASN?
    let company: Company?
    let carrier: Carrier?
    let languages: [Language]?
    let currency: Currency?
    let timeZone: Zone?
    let threat: Threat?

    enum CodingKeys: String, CodingKey {
        case ip, city, region, latitude, longitude, postal, flag, asn, company, carrier, languages, currency, threat
        case regionCode = "region_code"
        case countryName = "country_name"
        case countryCode = "country_code"
        case continentName = "continent_name"
        case continentCode = "continent_code"
        case isEU = "is_eu"
        case callingCode = "calling_code"
        case emojiFlag = "emoji_flag"
        case emojiUnicode = "emoji_unicode"
        case timeZone = "time_zone"
    }
}

/// A session delegate that implements nothing, to measure what having one costs.
final class EmptyDelegate: NSObject, URLSessionTaskDelegate, Sendable {}
