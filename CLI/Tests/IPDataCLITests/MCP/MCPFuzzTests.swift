// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import CLILibC
import CLITestSupport
import XCTest

@testable import ipdata_cli

/// Whatever the client sends, the server answers in JSON-RPC and goes on answering: thousands of
/// malformed, oversized, deep and random messages, then a `ping`.
final class MCPFuzzTests: XCTestCase {
    private static let seeds = [
        #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"extract_addresses","arguments":{"text":"1.2.3.4"}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"estimate","arguments":{"addresses":["8.8.8.8"]}}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup","arguments":{"ip":"10.0.0.1"}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#,
        #"[{"jsonrpc":"2.0","id":5,"method":"ping"}]"#,
    ]

    /// One random message: a seed cut, with bytes changed, its values swapped for random JSON,
    /// nested deep, made long, or plain random bytes.
    private func randomMessage(_ random: inout SeededGenerator) -> Data {
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var bytes = Array(Self.seeds[pick(Self.seeds.count)].utf8)
        switch pick(8) {
        case 0: bytes = Array(bytes.prefix(pick(bytes.count + 1)))
        case 1: for _ in 0..<(1 + pick(4)) { bytes[pick(bytes.count)] = UInt8(pick(256)) }
        case 2: bytes = (0..<pick(300)).map { _ in UInt8(pick(256)) }
        case 3:
            let depth = 1 + pick(200)
            bytes = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        case 4:
            let value = ["null", "true", "1.5e400", "-0", #""x""#, "[]", "{}", #"{"ip":[]}"#, "12345678901234567890"][
                pick(9)]
            bytes = Array(
                #"{"jsonrpc":"2.0","id":\#(pick(50)),"method":"tools/call","params":{"name":"\#(MCPTools.names[pick(6)])","arguments":{"ip":\#(value),"addresses":\#(value),"text":\#(value),"asn":\#(value)}}}"#
                    .utf8)
        case 5:
            bytes = Array(
                #"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"\#(String(repeating: "x", count: pick(200_000)))"}}"#
                    .utf8)
        case 6: bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: 0)
        default:
            bytes = Array(
                #"{"jsonrpc":"2.0","id":\#(["{}", "null", "1.5", "[]", "\"\\ud800\""][pick(5)]),"method":"ping"}"#.utf8)
        }
        return Data(bytes)
    }

    func testTheServerKeepsAnsweringAfterThousandsOfBadMessages() async throws {
        let session = MCPSession()
        session.initialize()
        var random = SeededGenerator(seed: 27)
        for _ in 0..<3_000 { session.server.receive(randomMessage(&random)) }
        await session.server.waitUntilIdle()
        session.request(424_242, "ping")
        XCTAssertEqual(session.answer(id: 424_242)?.value(at: ["result"]), .object([:]))
        // Every line sent is one JSON-RPC message (or a batch of them).
        for line in session.lines {
            let message = try JSONParser.parse(Data(line.utf8))
            let messages: [JSONValue]
            if case .array(let elements) = message { messages = elements } else { messages = [message] }
            for message in messages { XCTAssertEqual(message.value(at: ["jsonrpc"]), .string("2.0"), line) }
        }
    }

    func testALineBeyondTheLimitIsSkippedAndTheNextIsRead() throws {
        var descriptors: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&descriptors), 0)
        let writeEnd = descriptors[1]
        let writer = Thread {
            let text =
                String(repeating: "x", count: 300_000) + "\n" + "{\"a\":1}\r\n" + String(repeating: "y", count: 5_000)
            var bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeMutableBytes {
                    write(writeEnd, $0.baseAddress! + written, $0.count - written)
                }
                if count <= 0 { break }
                written += count
            }
            close(writeEnd)
        }
        writer.start()
        var lines: [Data] = []
        var oversized = 0
        MessageReader(fileDescriptor: descriptors[0], maximumLineBytes: 100_000)
            .readAll(line: { lines.append($0) }, oversized: { oversized += 1 })
        close(descriptors[0])
        XCTAssertEqual(oversized, 1)
        XCTAssertEqual(lines, [Data("{\"a\":1}\r".utf8), Data(String(repeating: "y", count: 5_000).utf8)])
    }
}
#endif
