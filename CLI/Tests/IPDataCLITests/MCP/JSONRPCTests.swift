// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// JSON-RPC 2.0's framing as `ipdata mcp` reads it: each kind of message, and the error codes of
/// the specification for what is none.
final class JSONRPCTests: XCTestCase {
    private func read(_ text: String, depth: Int = 64) -> JSONRPC.Incoming {
        JSONRPC.read(Data(text.utf8), maximumDepth: depth)
    }

    private func failure(_ text: String) -> JSONRPC.Failure? {
        if case .failure(let failure) = read(text) { return failure }
        return nil
    }

    func testARequestKeepsItsIdAsGivenAString() {
        XCTAssertEqual(
            read(#"{"jsonrpc":"2.0","id":"a-1","method":"ping"}"#),
            .single(.request(id: .string("a-1"), method: "ping", params: [:])))
        XCTAssertEqual(
            read(#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"x"}}"#),
            .single(.request(id: .integer(7), method: "tools/list", params: ["cursor": .string("x")])))
    }

    func testAMessageWithoutAnIdIsANotification() {
        XCTAssertEqual(
            read(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            .single(.notification(method: "notifications/initialized", params: [:])))
    }

    func testAnAnswerToTheServerIsReadAndIgnored() {
        XCTAssertEqual(read(#"{"jsonrpc":"2.0","id":1,"result":{}}"#), .single(.response))
        XCTAssertEqual(read(#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}"#), .single(.response))
    }

    func testTextThatIsNotJSONIsAParseErrorWithANullId() {
        for text in ["{", "not json", #"{"jsonrpc":"2.0","id":1,"method":"ping",}"#, "\u{FEFF}{}", "[1,]"] {
            XCTAssertEqual(failure(text)?.code, .parseError, text)
            XCTAssertEqual(failure(text)?.id, .null, text)
        }
    }

    func testJSONThatIsNoRequestIsAnInvalidRequestAnsweredWithItsIdWhenItHasOne() {
        XCTAssertEqual(failure("1")?.code, .invalidRequest)
        XCTAssertEqual(failure(#""text""#)?.code, .invalidRequest)
        XCTAssertEqual(failure("[]")?.code, .invalidRequest)
        XCTAssertEqual(
            failure(#"{"id":3,"method":"ping"}"#),
            .init(id: .integer(3), code: .invalidRequest, message: #"jsonrpc must be "2.0""#))
        XCTAssertEqual(failure(#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#)?.id, .integer(3))
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":3,"method":5}"#)?.code, .invalidRequest)
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":3}"#)?.code, .invalidRequest)
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}"#)?.code, .invalidRequest)
        // MCP's ids are strings or integers: null, decimals, objects are none.
        for id in ["null", "1.5", "{}", "[1]", "true"] {
            let text = #"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#
            XCTAssertEqual(
                failure(text), .init(id: .null, code: .invalidRequest, message: "id must be a string or an integer"),
                text)
        }
    }

    func testParamsAsAnArrayAreInvalidParams() {
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":"p","method":"ping","params":[1]}"#)?.code, .invalidParams)
    }

    func testABatchIsReadElementByElement() {
        guard
            case .batch(let elements) = read(
                #"[{"jsonrpc":"2.0","id":1,"method":"ping"},7,{"jsonrpc":"2.0","method":"n"}]"#)
        else { return XCTFail("not a batch") }
        XCTAssertEqual(elements.count, 3)
        XCTAssertEqual(try? elements[0].get(), .request(id: .integer(1), method: "ping", params: [:]))
        XCTAssertEqual(
            elements[1], .failure(.init(id: .null, code: .invalidRequest, message: "a message must be a JSON object")))
        XCTAssertEqual(try? elements[2].get(), .notification(method: "n", params: [:]))
    }

    func testNestingBeyondTheLimitIsRefusedBeforeItIsParsed() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertEqual(failure(deep)?.code, .parseError)
        XCTAssertEqual(failure(deep)?.message, "JSON nests deeper than 64")
        let fine = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}}"#
        XCTAssertEqual(
            read(fine, depth: 4),
            .single(
                .request(id: .integer(1), method: "ping", params: ["a": .string(String(repeating: "[", count: 36))])))
        XCTAssertEqual(JSONRPC.nestingDepth(Data(#"{"a":[{"b":"}]"}]}"#.utf8), limit: 64), 3)
    }

    func testAnswersAreOneLineEachWhateverTheirText() {
        let answer = JSONRPC.response(id: .string("x"), result: .object(["text": .string("a\nb\r\u{2028}c")]))
        XCTAssertFalse(answer.jsonText().contains("\n"))
        let error = JSONRPC.errorResponse(id: .null, code: .methodNotFound, message: "Method not found: x")
        XCTAssertEqual(
            error.jsonText(), #"{"error":{"code":-32601,"message":"Method not found: x"},"id":null,"jsonrpc":"2.0"}"#)
    }
}
#endif
