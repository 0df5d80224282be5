import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Code written against 1.0.1, as its users wrote it, with the public API only (no `@testable`):
/// every initialiser, method, error case with its labels, model property with its type, and
/// conformance. 1.x promises that all of it still compiles and means the same; a change to any of
/// it fails this file's build or its tests. (`scripts/check-api.sh` diffs the whole public API
/// against a committed baseline as well.)
final class Compatibility101Tests: XCTestCase {
    private func isModel<T: Codable & Sendable & Equatable>(_: T.Type) {}
    private func isError<T: Error & Sendable & CustomStringConvertible>(_: T.Type) {}

    func testEveryModelIsCodableSendableAndEquatable() {
        isModel(IPResponse.self)
        isModel(ASN.self)
        isModel(ASNDetail.self)
        isModel(Company.self)
        isModel(Carrier.self)
        isModel(Language.self)
        isModel(Currency.self)
        isModel(TimeZoneInfo.self)
        isModel(Threat.self)
        isModel(Blocklist.self)
        isModel(ThreatScores.self)
        isError(IPDataError.self)
    }

    func testTheClientIsMadeAndCalledAs101Did() {
        let client = IPDataClient(apiKey: "YOUR_API_KEY")
        _ = IPDataClient(apiKey: "k", baseURL: IPDataClient.euBaseURL, session: URLSession.shared)
        _ = IPDataClient(apiKey: "k", session: .shared)
        let urls: [URL] = [IPDataClient.defaultBaseURL, IPDataClient.euBaseURL]
        XCTAssertEqual(urls.map(\.absoluteString), ["https://api.ipdata.co", "https://eu-api.ipdata.co"])
        let own: ([String]?) async throws -> IPResponse = client.lookup(fields:)
        let one: (String, [String]?) async throws -> IPResponse = client.lookup(_:fields:)
        let field: (String, String) async throws -> Data = client.lookupField(_:field:)
        let bulk: ([String], [String]?) async throws -> [IPResponse] = client.bulkLookup(_:fields:)
        let asn: (String) async throws -> ASNDetail = client.lookupASN(_:)
        _ = (own, one, field, bulk, asn)
        let sendable: any Sendable = client
        XCTAssertTrue(sendable is IPDataClient)
    }

    func testEveryErrorCaseIsBuiltAndMatchedAs101Did() {
        let errors: [IPDataError] = [
            .badRequest("b"), .unauthorized("u"), .forbidden("f"), .notFound("n"),
            .unexpectedStatus(statusCode: 500, message: "x"), .decodingFailed(URLError(.cannotDecodeRawData)),
            .networkError(URLError(.timedOut)),
        ]
        var seen: [String] = []
        for error in errors {
            switch error {
            case .badRequest(let message), .unauthorized(let message), .forbidden(let message),
                .notFound(let message):
                seen.append(message)
            case .unexpectedStatus(let code, let message):
                seen.append("\(code) \(message)")
            case .decodingFailed(let underlying), .networkError(let underlying):
                seen.append(String(describing: type(of: underlying)))
            }
        }
        XCTAssertEqual(seen, ["b", "u", "f", "n", "500 x", "URLError", "URLError"])
        // Its labels name what it carries.
        guard case .unexpectedStatus(statusCode: 500, message: "x") = errors[4] else {
            return XCTFail("unexpectedStatus did not match with its labels")
        }
        XCTAssertEqual(errors.map(\.description).last, "Network error: The request timed out.")
    }

    func testEveryModelPropertyHasIts101Type() throws {
        let info = try JSONDecoder().decode(
            IPResponse.self,
            from: Data(
                #"{"ip":"1.1.1.1","asn":{},"company":{},"carrier":{},"languages":[{}],"currency":{},"time_zone":{},"threat":{"blocklists":[{}],"scores":{}}}"#
                    .utf8))
        let strings: [String?] = [
            info.ip, info.city, info.region, info.regionCode, info.countryName, info.countryCode, info.continentName,
            info.continentCode, info.postal, info.callingCode, info.flag, info.emojiFlag, info.emojiUnicode,
        ]
        let numbers: [Double?] = [info.latitude, info.longitude]
        let flags: [Bool?] = [info.isEU]
        let count: Int? = info.count
        XCTAssertEqual(strings.first, "1.1.1.1")
        _ = (numbers, flags, count)

        let asn = try XCTUnwrap(info.asn)
        let asnStrings: [String?] = [asn.asn, asn.name, asn.domain, asn.route, asn.type]
        let company = try XCTUnwrap(info.company)
        let companyStrings: [String?] = [company.name, company.domain, company.network, company.type]
        let carrier = try XCTUnwrap(info.carrier)
        let carrierStrings: [String?] = [carrier.name, carrier.mcc, carrier.mnc]
        let language = try XCTUnwrap(info.languages?.first)
        let languageStrings: [String?] = [language.name, language.native, language.code]
        let currency = try XCTUnwrap(info.currency)
        let currencyStrings: [String?] = [
            currency.name, currency.code, currency.symbol, currency.native, currency.plural,
        ]
        let zone = try XCTUnwrap(info.timeZone)
        let zoneStrings: [String?] = [zone.name, zone.abbr, zone.offset, zone.currentTime]
        let isDST: Bool? = zone.isDST
        let threat = try XCTUnwrap(info.threat)
        let threatFlags: [Bool?] = [
            threat.isTor, threat.isProxy, threat.isAnonymous, threat.isKnownAttacker, threat.isKnownAbuser,
            threat.isThreat, threat.isBogon,
        ]
        let blocklist = try XCTUnwrap(threat.blocklists?.first)
        let blocklistStrings: [String?] = [blocklist.name, blocklist.site, blocklist.type]
        let scores = try XCTUnwrap(threat.scores)
        let scoreNumbers: [Int?] = [scores.vpnScore, scores.proxyScore, scores.threatScore, scores.trustScore]
        let every = [asnStrings, companyStrings, carrierStrings, languageStrings, currencyStrings, zoneStrings]
        XCTAssertTrue(every.allSatisfy { $0.allSatisfy { $0 == nil } })
        XCTAssertTrue(threatFlags.allSatisfy { $0 == nil } && blocklistStrings.allSatisfy { $0 == nil })
        XCTAssertTrue(scoreNumbers.allSatisfy { $0 == nil } && isDST == nil)

        let detail = try JSONDecoder().decode(ASNDetail.self, from: Data("{}".utf8))
        let detailStrings: [String?] = [
            detail.asn, detail.name, detail.domain, detail.usage, detail.numIPs, detail.registry, detail.country,
            detail.date, detail.status,
        ]
        let prefixes: [[String]?] = [detail.ipv4Prefixes, detail.ipv6Prefixes]
        let neighbours: [[Int]?] = [detail.upstream, detail.downstream, detail.peers]
        XCTAssertTrue(detailStrings.allSatisfy { $0 == nil })
        _ = (prefixes, neighbours)
    }
}
