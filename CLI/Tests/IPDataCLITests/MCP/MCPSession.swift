// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import IPDataTesting

@testable import ipdata_cli

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `MCPServer` in the test's process, on the sandbox (or a slower transport), whose sent
/// lines are kept for the test to read. Its key is `key`, which nothing it sends may show.
final class MCPSession: Sendable {
    static let key = "mcp-test-key-3f9a"

    let server: MCPServer
    let sandbox: IPDataSandbox
    private let sent = Locked<[String]>([])

    init(maxRequests: Int = 100, delay: Double = 0, limits: MCPServer.Limits = MCPServer.Limits()) {
        let sandbox = IPDataSandbox()
        self.sandbox = sandbox
        let tally = RequestTally()
        let transport: any IPDataTransport = delay > 0 ? SlowTransport(sandbox: sandbox, seconds: delay) : sandbox
        var configuration = IPDataClient.Configuration(connection: .transport(transport))
        configuration.observer = SentRequestObserver(record: { tally.record($0) })
        let client = IPDataClient(apiKey: Self.key, configuration: configuration)
        let tools = MCPTools(client: client, cache: nil, budget: RequestBudget(limit: maxRequests, tally: tally))
        let sent = self.sent
        server = MCPServer(
            tools: tools, limits: limits, redaction: KeyRedaction(apiKey: Self.key),
            output: { line in sent.withLock { $0.append(line) } })
    }

    /// Sends one line, as the reader hands it on.
    func send(_ line: String) { server.receive(Data(line.utf8)) }

    /// Sends a request of `method` with `params` (JSON text) and id `id`.
    func request(_ id: Int, _ method: String, _ params: String = "{}") {
        send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
    }

    /// `initialize` with `version`, and the `initialized` notification.
    func initialize(version: String = "2025-06-18") {
        request(
            0, "initialize",
            #"{"protocolVersion":"\#(version)","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#)
        send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    }

    /// Calls `tool` with `arguments` (JSON text) and waits for the answer's result.
    func call(_ tool: String, _ arguments: String, id: Int = 1) async -> JSONValue? {
        request(id, "tools/call", #"{"name":"\#(tool)","arguments":\#(arguments)}"#)
        await server.waitUntilIdle()
        return answer(id: id)?.value(at: ["result"])
    }

    /// The lines sent so far.
    var lines: [String] { sent.withLock { $0 } }

    /// The lines sent so far, read as JSON (a line that is none fails the test that reads it).
    var messages: [JSONValue] { lines.compactMap { try? JSONParser.parse(Data($0.utf8)) } }

    /// The answer to request `id`, if one was sent.
    func answer(id: Int) -> JSONValue? {
        messages.last { $0.value(at: ["id"]) == .integer(id) }
    }
}

/// The sandbox, answering after `seconds`: a slow API, for cancellation.
struct SlowTransport: IPDataTransport {
    let sandbox: IPDataSandbox
    let seconds: Double

    func response(for request: URLRequest, limits: IPDataTransportLimits) async throws -> IPDataTransportResponse {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        return try await sandbox.response(for: request, limits: limits)
    }
}
#endif
