import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `LookupStreamOptions.keptAnswers`, the hook of the `ipdata` command's disk cache: kept
/// addresses are answered in their place without a request, the others go in full chunks, and
/// each successful answer is handed over.
final class KeptAnswersTests: MockedClientTestCase {
    /// Answers kept in memory, counting reads.
    private final class Kept: KeptAnswers {
        let answers: Locked<[String: Data]>
        let reads = Locked(0)

        init(_ addresses: [String]) {
            answers = Locked(Dictionary(uniqueKeysWithValues: addresses.map { ($0, Kept.json($0, "KEPT")) }))
        }

        static func json(_ ip: String, _ country: String) -> Data {
            Data(#"{"ip":"\#(ip)","country_code":"\#(country)"}"#.utf8)
        }

        func answer(for address: String) -> Data? {
            reads.withLock { $0 += 1 }
            return answers.withLock { $0[address] }
        }

        func keep(_ json: Data, for address: String) {
            answers.withLock { $0[address] = json }
        }
    }

    private func addresses(_ count: Int) -> [String] {
        (0..<count).map { "8.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }
    }

    private func options(_ kept: Kept, concurrency: Int = 4, keepsJSON: Bool = true) -> LookupStreamOptions {
        var options = LookupStreamOptions(concurrency: concurrency)
        options.keepsJSON = keepsJSON
        options.keptAnswers = kept
        return options
    }

    private func sentAddresses() throws -> [String] {
        try sent.filter { $0.url.path == "/bulk" }.flatMap {
            try XCTUnwrap(JSONSerialization.jsonObject(with: $0.body ?? Data()) as? [String])
        }
    }

    func testKeptAddressesAreAnsweredInTheirPlaceAndTheOthersGoInFullChunks() async throws {
        answerLikeTheAPI()
        let ips = addresses(1_000)
        let kept = Kept(ips.enumerated().filter { $0.offset % 3 == 0 }.map(\.element))
        let results = try await client.lookupAll(ips, options: options(kept))
        XCTAssertEqual(results.map(\.ip), ips)
        for (index, result) in results.enumerated() {
            let country = index % 3 == 0 ? "KEPT" : "US"
            let text = String(decoding: result.json ?? Data(), as: UTF8.self)
            XCTAssertTrue(text.contains(#""\#(country)""#) && text.contains(ips[index]), "\(index): \(text)")
        }
        XCTAssertEqual(
            try sentAddresses().sorted(), ips.enumerated().filter { $0.offset % 3 != 0 }.map(\.element).sorted())
        XCTAssertEqual(sent.count, 7, "666 addresses in full chunks of 100")
        // Each answer the API sent is kept: a second run sends nothing.
        let again = try await client.lookupAll(ips, options: options(kept))
        XCTAssertEqual(again.map(\.ip), ips)
        XCTAssertEqual(sent.count, 7)
    }

    func testAnInputOfKeptAnswersAloneIsReadOnlyAsFarAsTheWindowAllows() async throws {
        answerLikeTheAPI()
        let ips = addresses(20_000)
        let kept = Kept(ips)
        var iterator = client.lookupStream(ips, options: options(kept, concurrency: 2)).makeAsyncIterator()
        _ = try await iterator.next()
        XCTAssertLessThanOrEqual(kept.reads.withLock { $0 }, 3 * LookupPipeline.mostAddressesRead)
        var count = 1
        while try await iterator.next() != nil { count += 1 }
        XCTAssertEqual(count, 20_000)
        XCTAssertTrue(sent.isEmpty)
    }

    func testAfterTheSwitchToSingleLookupsKeptAnswersStayInTheirPlace() async throws {
        answerLikeTheAPI(bulkStatus: 403, bulkBody: try Fixture.data("errors/403-bulk-requires-paid.json"))
        let ips = addresses(300)
        let kept = Kept(ips.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        let results = try await client.lookupAll(ips, options: options(kept, concurrency: 2))
        XCTAssertEqual(results.map(\.ip), ips)
        XCTAssertEqual(results.filter { $0.json == Kept.json($0.ip, "KEPT") }.count, 150)
        XCTAssertEqual(sent.filter { $0.method == "GET" }.count, 150, "only the addresses not kept")
        XCTAssertEqual(kept.answers.withLock { $0.count }, 300, "single lookups' answers are kept too")
    }

    func testADecodingStreamDecodesKeptAnswersAndKeepsTheBytesOfNewOnes() async throws {
        answerLikeTheAPI()
        let kept = Kept(["8.8.8.8"])
        let results = try await client.lookupAll(
            ["8.8.8.8", "1.1.1.1", "10.0.0.1"], options: options(kept, keepsJSON: false))
        XCTAssertEqual(results.map { $0.response?.countryCode }, ["KEPT", "US", nil])
        XCTAssertTrue(results.allSatisfy { $0.json == nil })
        XCTAssertNotNil(kept.answers.withLock { $0["1.1.1.1"] })
        XCTAssertNil(kept.answers.withLock { $0["10.0.0.1"] }, "a rejected address is not kept")
        XCTAssertEqual(try sentAddresses(), ["1.1.1.1", "10.0.0.1"])
    }
}
