import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ready-made situation for an app's tests: an address with a known answer, or an error the
/// API (or the network) gives.
///
/// Address scenarios answer lookups of their `ip` with a full sample lookup object. The others
/// make a sandbox answer with a documented API error or a network failure; see each one.
public struct IPDataScenario: Sendable, Hashable, CustomStringConvertible {
    /// A short name for messages, such as `tor exit`.
    public let name: String
    /// The name: what a parameterised test (Swift Testing's arguments, XCTest's messages) shows.
    public var description: String { name }
    /// The address whose lookups this scenario answers, or nil for a scenario that is not about
    /// one address.
    public let ip: String?
    let reply: Reply
    /// The requests it is about, counted from 1 in the sandbox; nil for every one.
    let requestNumbers: Set<Int>?

    enum Reply: Sendable, Hashable {
        /// A JSON lookup object for `ip`.
        case lookup(String)
        /// An API error with this status, message and headers, for the requests in `scope`.
        case apiError(status: Int, message: String, scope: Scope, headers: [String: String] = [:])
        /// No HTTP answer at all.
        case networkFailure(URLError.Code)
        /// Every answer, this many seconds late.
        case slow(seconds: Double)
    }

    init(name: String, ip: String?, reply: Reply, requestNumbers: Set<Int>? = nil) {
        self.name = name
        self.ip = ip
        self.reply = reply
        self.requestNumbers = requestNumbers
    }

    enum Scope: Sendable, Hashable {
        /// Every request.
        case everyRequest
        /// `POST /bulk` only.
        case bulkRequests
        /// Lookups of the scenario's `ip` (in a bulk request, that address's slot).
        case address
        /// Lookups of the ASN in the scenario's `ip`.
        case asn
    }
}

extension IPDataScenario {
    /// An ordinary home broadband address in the US (73.162.18.4, Comcast): no threat flags.
    public static let residential = IPDataScenario(
        name: "residential", ip: "73.162.18.4", reply: .lookup(ScenarioBodies.residential))
    /// A data-centre address (8.8.8.8, Google): `threat.isDatacenter` is true.
    public static let datacenter = IPDataScenario(
        name: "datacenter", ip: "8.8.8.8", reply: .lookup(ScenarioBodies.datacenter))
    /// A Tor exit node in Germany (185.220.101.1): `threat.isTor`, `isAnonymous` and `isThreat`.
    public static let torExit = IPDataScenario(
        name: "tor exit", ip: "185.220.101.1", reply: .lookup(ScenarioBodies.torExit))
    /// A commercial VPN exit in the Netherlands (89.187.162.2): `threat.isVPN`, a VPN-feed blocklist
    /// entry without dates, and a `vpnScore` of 99.
    public static let vpn = IPDataScenario(name: "vpn", ip: "89.187.162.2", reply: .lookup(ScenarioBodies.vpn))
    /// A satellite internet address (143.105.40.17): `isSatellite` is true.
    public static let satellite = IPDataScenario(
        name: "satellite", ip: "143.105.40.17", reply: .lookup(ScenarioBodies.satellite))
    /// An anycast address (104.16.132.229) listed on blocklists with first and last seen dates.
    public static let anycast = IPDataScenario(
        name: "anycast", ip: "104.16.132.229", reply: .lookup(ScenarioBodies.anycast))
    /// A German IPv6 address (2a02:8070:a182:c100::1): `isEU` is true.
    public static let euIPv6 = IPDataScenario(
        name: "EU IPv6", ip: "2a02:8070:a182:c100::1", reply: .lookup(ScenarioBodies.euIPv6))

    /// Every request fails with 401, `You have not provided a valid API Key.`:
    /// `IPDataError.unauthorized`.
    public static let invalidKey = IPDataScenario(
        name: "invalid key", ip: nil,
        reply: .apiError(status: 401, message: APIMessage.invalidKey, scope: .everyRequest))
    /// Every request fails with 403 and the API's free-quota message: `IPDataError.forbidden`.
    public static let quotaExceeded = IPDataScenario(
        name: "quota exceeded", ip: nil,
        reply: .apiError(status: 403, message: APIMessage.freeQuotaExceeded, scope: .everyRequest))
    /// Lookups of 192.168.1.1 fail with 400, `192.168.1.1 is a private IP address` (in a bulk
    /// lookup: that address's `message`). Every other private address answers the same way.
    public static let privateIP = IPDataScenario(
        name: "private IP", ip: "192.168.1.1",
        reply: .apiError(status: 400, message: APIMessage.privateAddress("192.168.1.1"), scope: .address))
    /// `POST /bulk` fails with 403, `Upgrade to a paid plan to make bulk requests.`; single
    /// lookups still work (a streamed lookup falls back to them).
    public static let bulkNotAllowed = IPDataScenario(
        name: "bulk not allowed", ip: nil,
        reply: .apiError(status: 403, message: APIMessage.bulkNotInPlan, scope: .bulkRequests))
    /// `lookupASN("AS4294967295")` fails with 404, `AS4294967295 was not found.`; every ASN but
    /// AS15169 answers the same way.
    public static let unknownASN = IPDataScenario(
        name: "unknown ASN", ip: "AS4294967295",
        reply: .apiError(status: 404, message: APIMessage.asnNotFound("AS4294967295"), scope: .asn))
    /// Every request fails without an HTTP answer, as offline: `IPDataError.networkError` wrapping
    /// `URLError(.notConnectedToInternet)`.
    public static let networkFailure = IPDataScenario(
        name: "network failure", ip: nil, reply: .networkFailure(.notConnectedToInternet))

    /// Every answer comes `seconds` late (a cancelled call ends at once, with
    /// `URLError(.cancelled)`): for timeouts, latency budgets and loading states.
    public static func slowAnswers(seconds: Double) -> IPDataScenario {
        IPDataScenario(name: "answers \(seconds) s late", ip: nil, reply: .slow(seconds: seconds))
    }

    /// Every request fails with 429 and `Retry-After: seconds`: `IPDataError.unexpectedStatus`
    /// with status 429, unless the client's `RetryPolicy` waits and tries again.
    public static func rateLimited(retryAfter seconds: Int) -> IPDataScenario {
        IPDataScenario(
            name: "429, retry after \(seconds) s", ip: nil,
            reply: .apiError(
                status: 429, message: "Too many requests.", scope: .everyRequest,
                headers: ["Retry-After": "\(seconds)"]))
    }

    /// Every request fails with `status`, a server error (503 by default):
    /// `IPDataError.unexpectedStatus`, unless the client's `RetryPolicy` tries again.
    public static func serverError(status: Int = 503) -> IPDataScenario {
        IPDataScenario(
            name: "HTTP \(status)", ip: nil,
            reply: .apiError(status: status, message: "The server is unavailable.", scope: .everyRequest))
    }

    /// Every request times out: `IPDataError.networkError` wrapping `URLError(.timedOut)`.
    public static let timeout = IPDataScenario(name: "timeout", ip: nil, reply: .networkFailure(.timedOut))

    /// Every request dies with its connection, as when a server closes a pooled connection:
    /// `URLError(.networkConnectionLost)`, which the default policy resends once for a bulk request.
    public static let deadConnection = IPDataScenario(
        name: "dead connection", ip: nil, reply: .networkFailure(.networkConnectionLost))

    /// This scenario for the `numbers` requests of the sandbox alone (counted from 1, in the
    /// order they arrive), and the normal answer for the others: `.serverError().onRequests(1)`
    /// fails the first request and answers its retry.
    public func onRequests(_ numbers: Int...) -> IPDataScenario {
        let list = numbers.map(String.init).joined(separator: ", ")
        return IPDataScenario(
            name: "\(name), request\(numbers.count == 1 ? "" : "s") \(list)", ip: ip, reply: reply,
            requestNumbers: Set(numbers))
    }

    /// The address scenarios, which a new sandbox answers by default.
    public static let addresses: [IPDataScenario] = [
        residential, datacenter, torExit, vpn, satellite, anycast, euIPv6,
    ]

    /// The error scenarios: give one to `IPDataSandbox(failing:)`.
    public static let errors: [IPDataScenario] = [
        invalidKey, quotaExceeded, privateIP, bulkNotAllowed, unknownASN, networkFailure,
    ]
}
