// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

import IPData

@testable import ipdata_cli

/// `ipdata mcp`'s session, in process on the sandbox: the lifecycle, each tool's result, the
/// budget, cancellation, progress, batches and the key's secrecy.
final class MCPServerTests: XCTestCase {
    private func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private func integer(_ value: JSONValue?) -> Int? {
        if case .integer(let number)? = value { return number }
        return nil
    }

    private func array(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let elements)? = value { return elements }
        return []
    }

    func testInitializeAnswersWithTheClientsVersionWhenItSpeaksIt() {
        for (asked, agreed) in [
            ("2025-11-25", "2025-11-25"), ("2025-06-18", "2025-06-18"), ("2025-03-26", "2025-03-26"),
            ("2024-11-05", "2024-11-05"), ("2099-01-01", "2025-11-25"),
        ] {
            let session = MCPSession()
            session.initialize(version: asked)
            let result = session.answer(id: 0)?.value(at: ["result"])
            XCTAssertEqual(string(result?.value(at: ["protocolVersion"])), agreed, asked)
            XCTAssertNotNil(result?.value(at: ["capabilities", "tools"]))
            XCTAssertEqual(string(result?.value(at: ["serverInfo", "name"])), "ipdata")
        }
    }

    func testToolsNeedInitializeFirstButPingDoesNot() {
        let session = MCPSession()
        session.request(1, "ping")
        session.request(2, "tools/list")
        XCTAssertEqual(session.answer(id: 1)?.value(at: ["result"]), .object([:]))
        XCTAssertEqual(integer(session.answer(id: 2)?.value(at: ["error", "code"])), -32600)
        session.initialize()
        session.request(3, "tools/list")
        let tools = array(session.answer(id: 3)?.value(at: ["result", "tools"]))
        XCTAssertEqual(tools.compactMap { string($0.value(at: ["name"])) }, MCPTools.names)
        for tool in tools {
            XCTAssertEqual(string(tool.value(at: ["inputSchema", "type"])), "object")
            XCTAssertEqual(string(tool.value(at: ["outputSchema", "type"])), "object")
            XCTAssertFalse(string(tool.value(at: ["description"]))?.isEmpty ?? true)
        }
        session.request(4, "initialize", #"{"protocolVersion":"2025-06-18"}"#)
        XCTAssertEqual(integer(session.answer(id: 4)?.value(at: ["error", "code"])), -32600)
        session.request(5, "resources/list")
        XCTAssertEqual(integer(session.answer(id: 5)?.value(at: ["error", "code"])), -32601)
        session.request(6, "tools/call", #"{"name":"no_such_tool"}"#)
        XCTAssertEqual(integer(session.answer(id: 6)?.value(at: ["error", "code"])), -32602)
    }

    func testVersionsBeforeStructuredOutputGetNoOutputSchemaAndNoStructuredContent() async {
        for (version, structured) in [("2025-03-26", false), ("2024-11-05", false), ("2025-11-25", true)] {
            let session = MCPSession()
            session.initialize(version: version)
            session.request(1, "tools/list")
            let tools = array(session.answer(id: 1)?.value(at: ["result", "tools"]))
            XCTAssertEqual(tools.count, 6)
            XCTAssertTrue(tools.allSatisfy { ($0.value(at: ["outputSchema"]) != nil) == structured }, version)
            XCTAssertTrue(tools.allSatisfy { $0.value(at: ["annotations", "readOnlyHint"]) == .bool(true) }, version)
            let result = await session.call("extract_addresses", #"{"text":"8.8.8.8"}"#, id: 2)
            XCTAssertEqual(result?.value(at: ["structuredContent"]) != nil, structured, version)
            XCTAssertNotNil(array(result?.value(at: ["content"])).first?.value(at: ["text"]), version)
        }
    }

    func testLookupGivesTheAnswerAsStructuredContentAndAsText() async throws {
        let session = MCPSession()
        session.initialize()
        let result = await session.call("lookup", #"{"ip":"8.8.8.8"}"#)
        XCTAssertEqual(result?.value(at: ["isError"]), .bool(false))
        let structured = try XCTUnwrap(result?.value(at: ["structuredContent"]))
        XCTAssertEqual(string(structured.value(at: ["ip"])), "8.8.8.8")
        XCTAssertEqual(string(structured.value(at: ["result", "ip"])), "8.8.8.8")
        let text = try XCTUnwrap(string(array(result?.value(at: ["content"])).first?.value(at: ["text"])))
        XCTAssertEqual(try JSONParser.parse(Data(text.utf8)), structured)
        XCTAssertEqual(session.sandbox.requests.map(\.path), ["/8.8.8.8"])
    }

    func testAPrivateAddressIsAnErrorResultAnsweredLocally() async {
        let session = MCPSession()
        session.initialize()
        let result = await session.call("lookup", #"{"ip":"10.1.2.3"}"#)
        XCTAssertEqual(result?.value(at: ["isError"]), .bool(true))
        XCTAssertTrue(
            string(array(result?.value(at: ["content"])).first?.value(at: ["text"]))?.contains("private") ?? false)
        XCTAssertTrue(session.sandbox.requests.isEmpty)
    }

    func testBulkLookupGivesEachEntryItsResultOrItsErrorInInputOrder() async {
        let session = MCPSession()
        session.initialize()
        let addresses = [
            "8.8.8.8", "not-an-ip", "10.0.0.1", "2001:4860:4860::8888", "8.8.8.8", "2001:4860:4860:0::8888",
        ]
        let list = addresses.map { "\"\($0)\"" }.joined(separator: ",")
        let result = await session.call("bulk_lookup", #"{"addresses":[\#(list)]}"#)
        XCTAssertEqual(result?.value(at: ["isError"]), .bool(false))
        let entries = array(result?.value(at: ["structuredContent", "results"]))
        XCTAssertEqual(
            entries.map { string($0.value(at: ["ip"])) },
            addresses.map { Optional($0) }.enumerated().map {
                $0.offset == 5 ? "2001:4860:4860::8888" : $0.element
            })
        XCTAssertEqual(entries.map { $0.value(at: ["error"]) != nil }, [false, true, true, false, false, false])
        XCTAssertEqual(integer(result?.value(at: ["structuredContent", "failed"])), 2)
        // Each distinct public address once, in one bulk request.
        XCTAssertEqual(session.sandbox.requests.map(\.bulkAddresses), [["8.8.8.8", "2001:4860:4860::8888"]])
    }

    func testACallBeyondTheBudgetIsRefusedBeforeAnythingIsSent() async {
        let session = MCPSession(maxRequests: 1)
        session.initialize()
        let many = (1...150).map { "\"203.0.\($0 / 100).\($0 % 100 + 1)\"" }.joined(separator: ",")
        let refused = await session.call("bulk_lookup", #"{"addresses":[\#(many)]}"#, id: 1)
        XCTAssertEqual(refused?.value(at: ["isError"]), .bool(true))
        let text = string(array(refused?.value(at: ["content"])).first?.value(at: ["text"])) ?? ""
        XCTAssertTrue(
            text.contains("needs 2 requests") && text.contains("--max-requests 1") && text.contains("1 left"), text)
        XCTAssertTrue(session.sandbox.requests.isEmpty)
        let first = await session.call("lookup", #"{"ip":"8.8.8.8"}"#, id: 2)
        XCTAssertEqual(first?.value(at: ["isError"]), .bool(false))
        let second = await session.call("lookup", #"{"ip":"1.1.1.1"}"#, id: 3)
        XCTAssertTrue(
            string(array(second?.value(at: ["content"])).first?.value(at: ["text"]))?.contains("0 left") ?? false)
        // Private addresses and the dry run cost nothing, with the budget spent.
        let local = await session.call("bulk_lookup", #"{"addresses":["10.0.0.1","192.168.1.1"]}"#, id: 4)
        XCTAssertEqual(local?.value(at: ["isError"]), .bool(false))
        let estimate = await session.call("estimate", #"{"addresses":["1.1.1.1","10.0.0.1","1.1.1.1"]}"#, id: 5)
        XCTAssertEqual(integer(estimate?.value(at: ["structuredContent", "requests"])), 1)
        XCTAssertEqual(integer(estimate?.value(at: ["structuredContent", "budget", "left"])), 0)
        XCTAssertEqual(session.sandbox.requests.count, 1)
    }

    func testExtractAddressesFindsWhatGrepFindsAndSendsNothing() async {
        let session = MCPSession()
        session.initialize()
        let text =
            "GET /x from 8.8.4.4:443 ua Chrome/119.0.0.0\r\n[2001:DB8::1]:8080 at 18:55:55, 8.8.4.4; 10.0.0.1 v1.2.3.4.5\n"
        let escaped = String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst()
            .dropLast()
        let all = await session.call("extract_addresses", #"{"text":\#(escaped)}"#, id: 1)
        XCTAssertEqual(
            array(all?.value(at: ["structuredContent", "addresses"])).compactMap { string($0) },
            ["8.8.4.4", "2001:db8::1", "8.8.4.4", "10.0.0.1"])
        let unique = await session.call(
            "extract_addresses", #"{"text":\#(escaped),"unique":true,"public_only":true}"#, id: 2)
        XCTAssertEqual(
            array(unique?.value(at: ["structuredContent", "addresses"])).compactMap { string($0) }, ["8.8.4.4"])
        XCTAssertTrue(session.sandbox.requests.isEmpty)
    }

    func testSummarizeAndEstimate() async {
        let session = MCPSession()
        session.initialize()
        let summary = await session.call(
            "summarize", #"{"addresses":["8.8.8.8","8.8.8.8","10.0.0.1","1.1.1.1"],"top":3}"#, id: 1)
        XCTAssertEqual(integer(summary?.value(at: ["structuredContent", "summary", "total"])), 4)
        XCTAssertEqual(integer(summary?.value(at: ["structuredContent", "summary", "unique"])), 3)
        XCTAssertTrue(
            string(summary?.value(at: ["structuredContent", "text"]))?.hasPrefix("addresses  4 total") ?? false)
        let estimate = await session.call(
            "estimate", #"{"addresses":["8.8.8.8","x","10.0.0.1","9.9.9.9","8.8.8.8"]}"#, id: 2)
        let figures = estimate?.value(at: ["structuredContent"])
        XCTAssertEqual(integer(figures?.value(at: ["distinct"])), 4)
        XCTAssertEqual(integer(figures?.value(at: ["invalid"])), 1)
        XCTAssertEqual(integer(figures?.value(at: ["answered_locally"])), 1)
        XCTAssertEqual(integer(figures?.value(at: ["to_send"])), 2)
        XCTAssertEqual(session.sandbox.requests.count, 1, "summarize's one bulk request; estimate sends none")
    }

    func testBadArgumentsAreErrorResultsTheAgentCanRead() async {
        let session = MCPSession()
        session.initialize()
        for (tool, arguments) in [
            ("lookup", "{}"), ("lookup", #"{"ip":5}"#), ("lookup", #"{"ip":"8.8.8.8","colour":1}"#),
            ("bulk_lookup", #"{"addresses":[]}"#), ("bulk_lookup", #"{"addresses":[1]}"#),
            (
                "bulk_lookup",
                #"{"addresses":[\#(Array(repeating: "\"1.1.1.1\"", count: 1_001).joined(separator: ","))]}"#
            ),
            ("asn", #"{"asn":"ASBlah"}"#),
            ("extract_addresses", #"{"text":"\#(String(repeating: "a", count: 1_048_577))"}"#),
            ("summarize", #"{"addresses":["8.8.8.8"],"top":0}"#),
            ("lookup", #"{"ip":"8.8.8.8","fields":["contry_code"]}"#), ("estimate", #"{"addresses":"8.8.8.8"}"#),
        ] {
            let result = await session.call(tool, arguments)
            XCTAssertEqual(result?.value(at: ["isError"]), .bool(true), "\(tool) \(arguments.prefix(80))")
            XCTAssertTrue(
                string(array(result?.value(at: ["content"])).first?.value(at: ["text"]))?.hasPrefix("invalid arguments")
                    ?? false)
        }
        XCTAssertTrue(session.sandbox.requests.isEmpty)
    }

    func testACancelledCallStopsAndIsNotAnsweredWhilePingIsAnsweredMeanwhile() async throws {
        let session = MCPSession(delay: 30)
        session.initialize()
        session.request(9, "tools/call", #"{"name":"bulk_lookup","arguments":{"addresses":["8.8.8.8","1.1.1.1"]}}"#)
        session.request(10, "ping")
        XCTAssertNotNil(session.answer(id: 10), "ping waits for no call")
        let started = Date()
        session.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"test"}}"#)
        await session.server.waitUntilIdle()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertNil(session.answer(id: 9))
    }

    func testProgressIsSentForACallWithAProgressToken() async {
        let session = MCPSession()
        session.initialize()
        let list = (1...40).map { "\"198.51.100.\($0)\"" }.joined(separator: ",")
        session.request(
            1, "tools/call",
            #"{"name":"bulk_lookup","arguments":{"addresses":[\#(list)]},"_meta":{"progressToken":"p1"}}"#)
        await session.server.waitUntilIdle()
        let progress = session.messages.filter { string($0.value(at: ["method"])) == "notifications/progress" }
        XCTAssertFalse(progress.isEmpty)
        XCTAssertTrue(progress.allSatisfy { string($0.value(at: ["params", "progressToken"])) == "p1" })
        XCTAssertEqual(integer(progress.last?.value(at: ["params", "progress"])), 40)
        XCTAssertEqual(integer(progress.last?.value(at: ["params", "total"])), 40)
    }

    func testBatchesOnlyInTheVersionThatHasThem() {
        let batch =
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#
        let current = MCPSession()
        current.initialize(version: "2025-06-18")
        current.send(batch)
        XCTAssertEqual(integer(current.messages.last?.value(at: ["error", "code"])), -32600)
        let older = MCPSession()
        older.initialize(version: "2025-03-26")
        older.send(batch)
        let expectation = XCTestExpectation()
        Task {
            await older.server.waitUntilIdle()
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 10)
        let answers = array(older.messages.last)
        XCTAssertEqual(answers.map { integer($0.value(at: ["id"])) }, [1, 2])
        XCTAssertEqual(integer(answers.last?.value(at: ["error", "code"])), -32601)
    }

    func testTheKeyAppearsInNothingSentEvenWhenAMessageEchoesIt() async {
        let session = MCPSession()
        session.initialize()
        session.request(1, MCPSession.key)
        session.request(2, "tools/call", #"{"name":"\#(MCPSession.key)"}"#)
        _ = await session.call("lookup", #"{"ip":"\#(MCPSession.key)"}"#, id: 3)
        _ = await session.call("asn", #"{"asn":"AS15169"}"#, id: 4)
        XCTAssertTrue(session.lines.contains { $0.contains("REDACTED") })
        XCTAssertFalse(session.lines.contains { $0.contains(MCPSession.key) })
    }
}
#endif
