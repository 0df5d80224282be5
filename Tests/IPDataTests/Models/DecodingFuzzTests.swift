import Foundation
import XCTest

@testable import IPData

/// Thousands of mutated API bodies through every decoder the client uses: each gives a value or
/// `decodingFailed`, never a crash, a hang or another error.
final class DecodingFuzzTests: XCTestCase {
    private static let seed: UInt64 = 0x1DA7A_5EED
    private static let iterations = 12_000

    /// JSON values that stress a decoder: other types, extremes, odd Unicode.
    private static let oddValues: [String] = [
        "null", "true", "false", "0", "-0", "1", "-1", "1e400", "-1e400", "1e-400", "123456789012345678901234567890",
        "9223372036854775808", "0.1", "\"\"", "\"1506\"", "\"true\"", "\"AS15169\"", "\"\\u0000\"", "\"\\ud800\"",
        "\"\\udc00\\ud800\"", "\"\u{FEFF}\u{202E}gnp.exe\"", "\"👩‍👩‍👧‍👦🇺🇸\"", "\"\\\"\\\\\\/\"", "[]", "{}", "[1,\"a\",null]",
        "{\"a\":{\"b\":[{}]}}", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300),
        "\"" + String(repeating: "x", count: 100_000) + "\"",
    ]

    private enum Target: CaseIterable {
        case lookup, bulk, asn
    }

    private func seedBodies() throws -> [(Target, Data)] {
        var bodies: [(Target, Data)] = []
        for file in try Fixture.files(in: "lookup") + Fixture.files(in: "threat") {
            bodies.append((.lookup, try Fixture.data(file)))
        }
        for file in try Fixture.files(in: "bulk") { bodies.append((.bulk, try Fixture.data(file))) }
        bodies.append((.asn, try Fixture.data(Fixture.asnDetail)))
        return bodies
    }

    private func mutate(_ data: Data, using generator: inout SeededGenerator) -> Data {
        var bytes = [UInt8](data)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:  // Swap one value for an odd one: replace the text after a random `:` up to `,` or `}`.
            guard let colon = bytes.indices.filter({ bytes[$0] == UInt8(ascii: ":") }).randomElement(using: &generator)
            else { return data }
            var end = colon + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: ","), bytes[end] != UInt8(ascii: "}") { end += 1 }
            let value = Self.oddValues.randomElement(using: &generator)!
            bytes.replaceSubrange((colon + 1)..<end, with: Array(value.utf8))
        case 1:  // Truncate.
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
        case 2:  // Overwrite random bytes, including invalid UTF-8.
            for _ in 0..<Int.random(in: 1...8, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
        case 3:  // Insert random bytes.
            let insert = (0..<Int.random(in: 1...16, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            bytes.insert(contentsOf: insert, at: Int.random(in: 0...bytes.count, using: &generator))
        case 4:  // Nest the whole body deeply.
            let depth = Int.random(in: 1...2_000, using: &generator)
            bytes =
                Array(String(repeating: "[", count: depth).utf8) + bytes
                + Array(String(repeating: "]", count: depth).utf8)
        default:  // Delete a random range.
            guard !bytes.isEmpty else { return data }
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...64, using: &generator)))
        }
        return Data(bytes)
    }

    func testMutatedBodiesGiveAValueOrDecodingFailed() throws {
        let client = IPDataClient(apiKey: "k", session: MockURLProtocol.makeSession())
        let bodies = try seedBodies()
        var generator = SeededGenerator(seed: Self.seed)
        var outcomes = (values: 0, failures: 0)
        for iteration in 0..<Self.iterations {
            let (target, seedBody) = bodies[iteration % bodies.count]
            var body = mutate(seedBody, using: &generator)
            if iteration % 3 == 0 { body = mutate(body, using: &generator) }
            do {
                switch target {
                case .lookup: _ = try client.decode(IPResponse.self, from: body)
                case .bulk: _ = try client.decodeArray(IPResponse.self, from: body)
                case .asn: _ = try client.decode(ASNDetail.self, from: body)
                }
                outcomes.values += 1
            } catch IPDataError.decodingFailed {
                outcomes.failures += 1
            } catch {
                XCTFail("iteration \(iteration) (seed \(Self.seed)): \(error)")
            }
        }
        XCTAssertEqual(outcomes.values + outcomes.failures, Self.iterations)
        // Both outcomes occur, so the mutations neither always break nor never touch the bodies.
        XCTAssertGreaterThan(outcomes.values, Self.iterations / 10)
        XCTAssertGreaterThan(outcomes.failures, Self.iterations / 10)
    }

    /// The client reads answers with its own parser (`JSONNode`); apps and tests may decode the
    /// same models with `JSONDecoder` (`init(from:)`). For every mutated body both must give the
    /// same model, or both fail, or only `JSONDecoder` fails (on text it refuses, such as invalid
    /// UTF-8 in a string, which the parser reads as U+FFFD): one set of rules, two ways in, and
    /// never an answer lost to the faster one.
    func testTheClientsParserAndJSONDecoderAgreeOnEveryMutatedBody() throws {
        let bodies = try seedBodies()
        var generator = SeededGenerator(seed: Self.seed ^ 0xA9EE)
        var outcomes = (same: 0, bothFailed: 0, onlyDecoderFailed: 0)
        func compare<Model: Decodable & Equatable>(
            _ fast: Result<Model, Error>, _ decoder: Result<Model, Error>,
            _ iteration: Int, _ body: Data
        ) {
            switch (fast, decoder) {
            case (.success(let fast), .success(let decoded)):
                XCTAssertEqual(fast, decoded, "iteration \(iteration): \(Self.difference(fast, decoded))")
                outcomes.same += 1
            case (.failure, .failure):
                outcomes.bothFailed += 1
            case (.success, .failure):
                outcomes.onlyDecoderFailed += 1
            case (.failure(let error), .success):
                XCTFail(
                    "iteration \(iteration): only the parser failed (\(error)): \(Self.context(of: error, in: body))")
            }
        }
        for iteration in 0..<Self.iterations {
            let (target, seedBody) = bodies[iteration % bodies.count]
            var body = mutate(seedBody, using: &generator)
            if iteration % 3 == 0 { body = mutate(body, using: &generator) }
            switch target {
            case .lookup:
                compare(
                    Result { try IPResponse(jsonData: body) },
                    Result { try JSONDecoder().decode(IPResponse.self, from: body) }, iteration, body)
            case .bulk:
                compare(
                    Result { try IPResponse.array(jsonData: body) },
                    Result { try JSONDecoder().decode([LenientElement<IPResponse>].self, from: body).map(\.element) },
                    iteration, body)
            case .asn:
                compare(
                    Result { try ASNDetail(jsonData: body) },
                    Result { try JSONDecoder().decode(ASNDetail.self, from: body) }, iteration, body)
            }
        }
        XCTAssertGreaterThan(outcomes.same, Self.iterations / 10)
        XCTAssertGreaterThan(outcomes.bothFailed, Self.iterations / 10)
    }

    /// The members in which two values differ, as text, for a failure message.
    private static func difference(_ left: Any, _ right: Any, path: String = "") -> String {
        let (leftMirror, rightMirror) = (Mirror(reflecting: left), Mirror(reflecting: right))
        guard !leftMirror.children.isEmpty, leftMirror.children.count == rightMirror.children.count else {
            return "\(path): \(String(reflecting: left)) against \(String(reflecting: right))"
        }
        return zip(leftMirror.children, rightMirror.children).compactMap { one, other in
            let label = path + "." + (one.label ?? "?")
            guard String(reflecting: one.value) != String(reflecting: other.value) else { return nil }
            return difference(one.value, other.value, path: label)
        }.joined(separator: "; ")
    }

    /// The text around the byte a parser error names, for a failure message.
    private static func context(of error: Error, in body: Data) -> String {
        let text = String(describing: error)
        guard let range = text.range(of: "at byte "), let offset = Int(text[range.upperBound...].prefix { $0.isNumber })
        else { return String(decoding: body.prefix(300), as: UTF8.self) }
        let start = max(0, offset - 80)
        return String(reflecting: String(decoding: body[start..<min(body.count, offset + 40)], as: UTF8.self))
    }
}
