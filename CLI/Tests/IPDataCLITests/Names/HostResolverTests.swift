// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// The system resolver, asked once a name a run.
final class HostResolverTests: XCTestCase {
    /// `localhost` resolves on any machine, to loopback addresses only, each once.
    func testLocalhostResolvesToLoopbackAddresses() async {
        guard case .addresses(let addresses) = await HostResolver().resolve("localhost") else {
            return XCTFail("localhost does not resolve")
        }
        XCTAssertFalse(addresses.isEmpty)
        XCTAssertEqual(Set(addresses).count, addresses.count, "\(addresses)")
        for address in addresses {
            XCTAssertEqual(IPAddress(address)?.description, address, "canonical")
            XCTAssertTrue(["127.0.0.1", "::1"].contains(address), address)
        }
    }

    /// A final dot is no part of the name asked for: `localhost.` resolves as `localhost` does
    /// (glibc's hosts file matches no name with the dot), so every spelling shares one answer.
    func testANameWithItsFinalDotResolvesAsWithout() async {
        let resolution = await HostResolver().resolve("LocalHost.")
        let plain = await HostResolver().resolve("localhost")
        XCTAssertEqual(resolution, plain)
        guard case .addresses = resolution else { return XCTFail("\(resolution)") }
    }

    /// A name under `.invalid` never resolves (RFC 6761): the message names it and says why.
    func testANameUnderInvalidFailsWithItsName() async {
        let resolution = await HostResolver().resolve("nothing-here.example.invalid")
        guard case .failed(let message) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertTrue(message.hasPrefix("nothing-here.example.invalid: the name does not resolve ("), message)
        XCTAssertTrue(message.hasSuffix(")"), message)
        XCTAssertGreaterThan(message.count, "nothing-here.example.invalid: the name does not resolve ()".count)
    }

    /// Ten thousand asks of one name, many at once and in several spellings, cost one call of
    /// the system resolver, and each gets the same answer.
    func testEachNameIsResolvedOnceARun() async {
        let resolver = HostResolver()
        let answers = await withTaskGroup(of: HostResolver.Resolution.self) { group in
            for index in 0..<10_000 {
                group.addTask { await resolver.resolve(index % 3 == 0 ? "LocalHost." : "localhost") }
            }
            return await group.reduce(into: [HostResolver.Resolution]()) { $0.append($1) }
        }
        XCTAssertEqual(answers.count, 10_000)
        XCTAssertEqual(Set(answers.map { "\($0)" }).count, 1)
        XCTAssertEqual(resolver.resolutions, 1)
        _ = await resolver.resolve("other.example.invalid")
        XCTAssertEqual(resolver.resolutions, 2)
    }
}
#endif
