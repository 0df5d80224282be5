import IPData
import XCTest

@testable import IPDataServer

/// What `IPDataMiddleware` lets through to the API, on a clock of the test's.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class LookupGateTests: XCTestCase {
    private let start = ContinuousClock.now

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start + .milliseconds(milliseconds)
    }

    private func address(_ text: String) throws -> IPAddress {
        try XCTUnwrap(IPAddress(text))
    }

    private func admitted(_ gate: LookupGate, _ text: String, at milliseconds: Int = 0) async throws -> Bool {
        guard case .go = await gate.admit(try address(text), now: at(milliseconds)) else { return false }
        await gate.ended(nil, now: at(milliseconds))
        return true
    }

    func testOneIPv6NetworkGetsItsNewClientsAMinuteAndNoMore() async throws {
        let gate = LookupGate(limits: .init(newClientsPerNetworkPerMinute: 30), now: at(0))
        var admittedCount = 0
        for n in 1...300 where try await admitted(gate, "2606:4700:1:2::\(String(n, radix: 16))", at: n) {
            admittedCount += 1
        }
        XCTAssertEqual(admittedCount, 30, "300 addresses of one /64: 30 lookups")
        let other = try await admitted(gate, "2606:4700:1:3::1", at: 400)
        XCTAssertTrue(other, "another /64 is another network")
        let nextMinute = try await admitted(gate, "2606:4700:1:2::ffff", at: 61_000)
        XCTAssertTrue(nextMinute, "a minute later")
    }

    func testARememberedClientIsNotNew() async throws {
        let gate = LookupGate(limits: .init(newClientsPerNetworkPerMinute: 1, rememberedFor: 10), now: at(0))
        for n in 0..<100 {
            let again = try await admitted(gate, "2606:4700:1:2::1", at: n)
            XCTAssertTrue(again, "the same client, request \(n)")
        }
        let newOne = try await admitted(gate, "2606:4700:1:2::2", at: 100)
        XCTAssertFalse(newOne, "a second new client of the network")
        let forgotten = try await admitted(gate, "2606:4700:1:2::1", at: 10_100)
        XCTAssertFalse(forgotten, "new again after rememberedFor, and the network's minute is not over")
    }

    func testIPv4ClientsAreTheirOwnNetworksByDefault() async throws {
        let gate = LookupGate(limits: .init(newClientsPerNetworkPerMinute: 1), now: at(0))
        for n in 1...50 {
            let admittedNow = try await admitted(gate, "203.0.113.\(n)", at: n)
            XCTAssertTrue(admittedNow)
        }
        let slash24 = LookupGate(limits: .init(newClientsPerNetworkPerMinute: 1, ipv4PrefixLength: 24), now: at(0))
        let first = try await admitted(slash24, "203.0.113.1")
        let second = try await admitted(slash24, "203.0.113.2")
        XCTAssertEqual([first, second], [true, false])
    }

    func testNewClientsASecondInTotal() async throws {
        let gate = LookupGate(limits: .init(newClientsPerSecond: 100), now: at(0))
        var count = 0
        for n in 1...300 where try await admitted(gate, "2606:4700:\(String(n, radix: 16))::1") { count += 1 }
        XCTAssertEqual(count, 100, "a burst of 100")
        count = 0
        for n in 301...400 where try await admitted(gate, "2606:4700:\(String(n, radix: 16))::1", at: 500) {
            count += 1
        }
        XCTAssertEqual(count, 50, "then 100 a second")
    }

    /// A network past its minute's share spends none of the tokens other new clients need.
    func testOneNetworksFloodLeavesTheOthersTheirTokens() async throws {
        let gate = LookupGate(limits: .init(newClientsPerSecond: 10, newClientsPerNetworkPerMinute: 5), now: at(0))
        var flood = 0
        for n in 1...100 where try await admitted(gate, "2606:4700:1:2::\(String(n, radix: 16))") { flood += 1 }
        XCTAssertEqual(flood, 5)
        var others = 0
        for n in 1...10 where try await admitted(gate, "2606:4700:\(String(n + 16, radix: 16))::1") { others += 1 }
        XCTAssertEqual(others, 5, "the 5 tokens the flood did not get")
    }

    func testPendingLookupsAreBounded() async throws {
        let gate = LookupGate(limits: .init(maximumPending: 2), now: at(0))
        for n in 1...2 {
            guard case .go = await gate.admit(try address("203.0.113.\(n)"), now: at(0)) else { return XCTFail() }
        }
        guard case .limited = await gate.admit(try address("203.0.113.3"), now: at(0)) else { return XCTFail() }
        await gate.ended(nil, now: at(1))
        guard case .go = await gate.admit(try address("203.0.113.3"), now: at(1)) else { return XCTFail() }
    }

    func testAQuota403PausesEveryLookupThenOneTriesAgain() async throws {
        let gate = LookupGate(limits: .init(quotaPause: 300), now: at(0))
        let quota = IPDataError.forbidden(
            "You have exceeded your free quota. Upgrade to a paid plan to re-activate your account.")
        guard case .go = await gate.admit(try address("8.8.8.8"), now: at(0)) else { return XCTFail() }
        await gate.ended(quota, now: at(10))
        for n in 1...20 {
            guard case .quotaExhausted(let error) = await gate.admit(try address("1.1.1.\(n)"), now: at(10 + n)) else {
                return XCTFail("sent during the pause")
            }
            XCTAssertEqual("\(error)", "\(quota)")
        }
        guard case .go = await gate.admit(try address("9.9.9.9"), now: at(300_010)) else { return XCTFail() }
        guard case .quotaExhausted = await gate.admit(try address("9.9.9.8"), now: at(300_011)) else {
            return XCTFail("one lookup tries again, not every one")
        }
        await gate.ended(nil, now: at(300_100))
        let back = try await admitted(gate, "9.9.9.7", at: 300_101)
        XCTAssertTrue(back, "the quota is back")
        guard case .go = await gate.admit(try address("9.9.9.6"), now: at(300_200)) else { return XCTFail() }
        await gate.ended(.forbidden("Upgrade to a paid plan to access ASN data."), now: at(300_201))
        let notQuota = try await admitted(gate, "9.9.9.5", at: 300_202)
        XCTAssertTrue(notQuota, "another 403 pauses nothing")
    }
}
