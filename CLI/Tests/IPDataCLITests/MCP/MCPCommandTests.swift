// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The built `ipdata mcp`, on the sandbox: no key, no network; standard output holds JSON-RPC
/// alone, whatever comes in.
final class MCPCommandTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    private static let initialize =
        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"#
        + #""clientInfo":{"name":"test","version":"1"}}}"#

    /// Standard output's lines, each read as a JSON object by Foundation's reader.
    private func messages(_ run: BuiltBinary.Run) throws -> [[String: Any]] {
        try run.stdoutLines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            XCTAssertEqual(object?["jsonrpc"] as? String, "2.0", line)
            return try XCTUnwrap(object, line)
        }
    }

    func testTheSandboxServesWithoutAKeyAndStandardOutputHoldsJSONRPCAlone() throws {
        let lines = [
            Self.initialize, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup","arguments":{"ip":"8.8.8.8"}}}"#,
            "not json at all", "", "\u{FEFF}{}",
            #"{"jsonrpc":"2.0","id":"last","method":"ping"}"#,
        ]
        let run = try ipdata(["mcp", "--sandbox"], key: .absent, stdin: lines.joined(separator: "\r\n") + "\r\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        let answers = try messages(run)
        XCTAssertEqual(answers.count, 6, run.stdout)
        // By the id's text: Foundation reads 1 as an NSNumber that AnyHashable confuses with true.
        var byID: [String: [String: Any]] = [:]
        for answer in answers { byID[answer["id"].map { "\($0)" } ?? "null"] = answer }
        XCTAssertNotNil(byID["0"]?["result"])
        XCTAssertEqual(((byID["1"]?["result"] as? [String: Any])?["tools"] as? [Any])?.count, 6)
        let call = byID["2"]?["result"] as? [String: Any]
        XCTAssertEqual(call?["isError"] as? Bool, false)
        XCTAssertEqual((call?["structuredContent"] as? [String: Any])?["ip"] as? String, "8.8.8.8")
        XCTAssertNotNil(byID["last"]?["result"])
        let parseErrors = answers.filter { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
        XCTAssertEqual(parseErrors.count, 2, "the text and the byte order mark")
        XCTAssertTrue(run.stderrLines.allSatisfy { $0.hasPrefix("ipdata: ") }, run.stderr)
    }

    func testAMessageBeyondFourMebibytesIsSkippedWithAnErrorAndTheNextIsAnswered() throws {
        let long =
            #"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":""# + String(repeating: "x", count: 5 << 20)
            + #""}}"#
        let ping = #"{"jsonrpc":"2.0","id":10,"method":"ping"}"#
        let run = try ipdata(["mcp", "--sandbox"], key: .absent, stdin: long + "\n" + ping + "\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        let answers = try messages(run)
        XCTAssertEqual(answers.count, 2, run.stdout.prefix(400).description)
        XCTAssertEqual((answers.first?["error"] as? [String: Any])?["code"] as? Int, -32600)
        XCTAssertEqual(answers.last?["id"] as? Int, 10)
    }

    func testABadBudgetIsAUsageError() throws {
        let run = try ipdata(["mcp", "--sandbox", "--max-requests", "lots"], key: .absent, stdin: "")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(
            run.stderrLines, ["ipdata: --max-requests must be a whole number from 0 to 1000000 (see ipdata mcp --help)"]
        )
        XCTAssertEqual(run.stdout, "")
    }
}
#endif
