import Foundation
import IPData

/// An MCP server session: reads the client's JSON-RPC messages one line at a time
/// (`receive(_:)`), answers `initialize`, `ping` and `tools/list` at once, and runs each
/// `tools/call` as a task of its own, so that a slow lookup never holds up a `ping` or a
/// cancellation. Every message it sends is one line, passed whole to `output`, with each form of
/// the API key replaced by `REDACTED` first.
///
/// `notifications/cancelled` cancels the call it names (its lookups stop), and no answer is sent
/// for it, as the specification asks. A call whose `_meta` has a `progressToken` is sent
/// `notifications/progress` as its entries are answered.
final class MCPServer: Sendable {
    /// The protocol versions the server speaks, newest first: it answers `initialize` with the
    /// client's when it is one of these, else with the newest.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The versions in which a line may hold a batch (2025-06-18 removed batches).
    static let batchVersions: Set = ["2025-03-26"]
    /// The versions that know tools' titles, `outputSchema` and `structuredContent` (2025-06-18 added
    /// them): the server sends them to these only.
    static let structuredVersions: Set = ["2025-11-25", "2025-06-18"]

    /// The bounds of the session's messages.
    struct Limits: Sendable {
        /// Bytes of one message (one line); a longer line is skipped with an error.
        var lineBytes = 4 << 20
        /// How deep a message's arrays and objects may nest.
        var depth = 64
        /// Calls (and batches) running at once; one beyond is refused with an error.
        var callsInFlight = 32
    }

    private struct State {
        /// The protocol version agreed by `initialize`; nil before it.
        var version: String?
        /// The calls running, by their id's JSON text.
        var running: [String: Task<Void, Never>] = [:]
        /// The calls cancelled by the client, whose answers are not sent.
        var cancelled: Set<String> = []
    }

    let tools: MCPTools
    let limits: Limits
    private let redaction: KeyRedaction
    private let output: @Sendable (String) -> Void
    private let state = Locked(State())

    /// A session that answers with `tools`, hides the keys `redaction` knows in everything it
    /// sends, and sends each message, one line without its line end, to `output`.
    init(
        tools: MCPTools, limits: Limits = Limits(), redaction: KeyRedaction,
        output: @escaping @Sendable (String) -> Void
    ) {
        self.tools = tools
        self.limits = limits
        self.redaction = redaction
        self.output = output
    }

    /// The protocol version agreed, if `initialize` was answered.
    var protocolVersion: String? { state.withLock { $0.version } }

    // MARK: Receiving

    /// Handles one line of the client's, without its `\n` (a `\r` before it is dropped).
    func receive(_ line: Data) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard line.contains(where: { ![0x20, 0x09].contains($0) }) else { return }
        switch JSONRPC.read(line, maximumDepth: limits.depth) {
        case .failure(let failure): send(JSONRPC.errorResponse(failure))
        case .single(let message): handle(message)
        case .batch(let elements): handleBatch(elements)
        }
    }

    /// Answers a line longer than `limits.lineBytes`, which the reader skipped.
    func receiveOversizedLine() {
        send(
            JSONRPC.errorResponse(
                id: .null, code: .invalidRequest,
                message: "a message longer than \(limits.lineBytes) bytes was skipped"))
    }

    private func handle(_ message: JSONRPC.Message) {
        switch message {
        case .response: return
        case .notification(let method, let params): notified(method, params: params)
        case .request(let id, "tools/call", let params): start(call: id, params: params)
        case .request(let id, let method, let params): send(answer(id: id, method: method, params: params))
        }
    }

    /// The answer to a request that is not a tool call.
    private func answer(id: JSONValue, method: String, params: [String: JSONValue]) -> JSONValue {
        switch method {
        case "initialize":
            return initialize(id: id, params: params)
        case "ping":
            return JSONRPC.response(id: id, result: .object([:]))
        case "tools/list":
            guard let version = protocolVersion else { return Self.notInitialized(id) }
            let tools = MCPTools.definitions.map { tool in
                Self.structuredVersions.contains(version) ? tool : tool.removing(["title", "outputSchema"])
            }
            return JSONRPC.response(id: id, result: .object(["tools": .array(tools)]))
        default:
            return JSONRPC.errorResponse(id: id, code: .methodNotFound, message: "Method not found: \(method)")
        }
    }

    private static func notInitialized(_ id: JSONValue) -> JSONValue {
        JSONRPC.errorResponse(id: id, code: .invalidRequest, message: "send initialize first")
    }

    private func initialize(id: JSONValue, params: [String: JSONValue]) -> JSONValue {
        guard case .string(let asked)? = params["protocolVersion"] else {
            return JSONRPC.errorResponse(id: id, code: .invalidParams, message: "protocolVersion must be a string")
        }
        let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
        let agreed: Bool = state.withLock { state in
            guard state.version == nil else { return false }
            state.version = version
            return true
        }
        guard agreed else {
            return JSONRPC.errorResponse(id: id, code: .invalidRequest, message: "already initialized")
        }
        return JSONRPC.response(
            id: id,
            result: .object([
                "protocolVersion": .string(version),
                "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
                "serverInfo": .object([
                    "name": .string("ipdata"), "title": .string("ipdata.co IP intelligence"),
                    "version": .string(IPDataClient.sdkVersion),
                ]),
                "instructions": .string(
                    "IP geolocation, network and threat data from ipdata.co. Calls that send requests are counted "
                        + "against a request budget for the session; estimate tells what a list costs first. "
                        + "extract_addresses and estimate send nothing."),
            ]))
    }

    private func notified(_ method: String, params: [String: JSONValue]) {
        guard method == "notifications/cancelled", let id = params["requestId"] else { return }
        let key = id.jsonText()
        state.withLock { state in
            guard let task = state.running[key] else { return }
            state.cancelled.insert(key)
            task.cancel()
        }
    }

    // MARK: Tool calls

    /// What a `tools/call` asks for, or the error that answers it.
    private func toolCall(id: JSONValue, params: [String: JSONValue]) -> Result<ToolCall, JSONRPC.Failure> {
        guard protocolVersion != nil else {
            return .failure(JSONRPC.Failure(id: id, code: .invalidRequest, message: "send initialize first"))
        }
        guard case .string(let name)? = params["name"] else {
            return .failure(JSONRPC.Failure(id: id, code: .invalidParams, message: "name must be a tool's name"))
        }
        guard MCPTools.names.contains(name) else {
            return .failure(JSONRPC.Failure(id: id, code: .invalidParams, message: "Unknown tool: \(name)"))
        }
        var arguments: [String: JSONValue] = [:]
        switch params["arguments"] {
        case nil, .null?: break
        case .object(let given)?: arguments = given
        default:
            return .failure(JSONRPC.Failure(id: id, code: .invalidParams, message: "arguments must be an object"))
        }
        var token: JSONValue?
        if case .object(let meta)? = params["_meta"], let given = meta["progressToken"] {
            switch given {
            case .string, .integer: token = given
            default: break
            }
        }
        return .success(ToolCall(name: name, arguments: arguments, progressToken: token))
    }

    private struct ToolCall {
        let name: String
        let arguments: [String: JSONValue]
        let progressToken: JSONValue?
    }

    /// Runs a call as a task of its own, registered under its id for cancellation.
    private func start(call id: JSONValue, params: [String: JSONValue]) {
        let call: ToolCall
        switch toolCall(id: id, params: params) {
        case .failure(let failure): return send(JSONRPC.errorResponse(failure))
        case .success(let given): call = given
        }
        let key = id.jsonText()
        let refusal: String? = state.withLock { state in
            guard state.running[key] == nil else { return "a call with id \(key) is still running" }
            guard state.running.count < limits.callsInFlight else {
                return "\(limits.callsInFlight) calls are running: wait for one to end"
            }
            state.cancelled.remove(key)
            state.running[key] = Task {
                let result = await self.run(call)
                let wasCancelled = self.state.withLock { state in
                    state.running[key] = nil
                    return state.cancelled.remove(key) != nil
                }
                if !wasCancelled { self.send(JSONRPC.response(id: id, result: result)) }
            }
            return nil
        }
        if let refusal { send(JSONRPC.errorResponse(id: id, code: .invalidRequest, message: refusal)) }
    }

    /// The result of `call`, with progress sent to its token as it goes.
    private func run(_ call: ToolCall) async -> JSONValue {
        var progress: (@Sendable (Int, Int) -> Void)?
        if let token = call.progressToken {
            progress = { [self] done, total in
                guard !Task.isCancelled else { return }
                send(
                    JSONRPC.notification(
                        method: "notifications/progress",
                        params: [
                            "progressToken": token, "progress": .integer(done), "total": .integer(total),
                            "message": .string("\(done) of \(total) addresses answered"),
                        ]))
            }
        }
        let outcome = await tools.call(call.name, arguments: call.arguments, progress: progress)
        let result = (outcome ?? .failure("Unknown tool: \(call.name)")).json
        guard let version = protocolVersion, !Self.structuredVersions.contains(version) else { return result }
        return result.removing(["structuredContent"])
    }

    // MARK: Batches

    /// A batch, in the versions that have them: its requests answered together in one line (its
    /// calls run at once), nothing for one of notifications only.
    private func handleBatch(_ elements: [Result<JSONRPC.Message, JSONRPC.Failure>]) {
        guard let version = protocolVersion, Self.batchVersions.contains(version) else {
            let which = protocolVersion.map { "protocol version \($0)" } ?? "a session before initialize"
            return send(
                JSONRPC.errorResponse(
                    id: .null, code: .invalidRequest,
                    message: "batches are not part of \(which): send one message a line"))
        }
        let key = "batch " + UUID().uuidString
        let refused: Bool = state.withLock { state in
            guard state.running.count < limits.callsInFlight else { return true }
            state.running[key] = Task {
                let answers = await self.answers(to: elements)
                self.state.withLock { state in state.running[key] = nil }
                if !answers.isEmpty { self.send(.array(answers)) }
            }
            return false
        }
        if refused {
            send(
                JSONRPC.errorResponse(
                    id: .null, code: .invalidRequest, message: "\(limits.callsInFlight) calls are running"))
        }
    }

    private func answers(to elements: [Result<JSONRPC.Message, JSONRPC.Failure>]) async -> [JSONValue] {
        await withTaskGroup(of: (Int, JSONValue?).self) { group in
            for (index, element) in elements.enumerated() {
                group.addTask {
                    switch element {
                    case .failure(let failure): return (index, JSONRPC.errorResponse(failure))
                    case .success(.response): return (index, nil)
                    case .success(.notification(let method, let params)):
                        self.notified(method, params: params)
                        return (index, nil)
                    case .success(.request(let id, "tools/call", let params)):
                        switch self.toolCall(id: id, params: params) {
                        case .failure(let failure): return (index, JSONRPC.errorResponse(failure))
                        case .success(let call): return (index, JSONRPC.response(id: id, result: await self.run(call)))
                        }
                    case .success(.request(let id, let method, let params)):
                        return (index, self.answer(id: id, method: method, params: params))
                    }
                }
            }
            var answers: [(Int, JSONValue)] = []
            for await (index, answer) in group { if let answer { answers.append((index, answer)) } }
            return answers.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    // MARK: Sending and ending

    private func send(_ message: JSONValue) {
        output(redaction.redact(message.jsonText()))
    }

    /// Waits for the calls running to end.
    func waitUntilIdle() async {
        while true {
            let tasks = state.withLock { Array($0.running.values) }
            if tasks.isEmpty { return }
            for task in tasks { await task.value }
        }
    }
}

extension JSONValue {
    /// The object without the members `keys`; any other value as it is.
    fileprivate func removing(_ keys: Set<String>) -> JSONValue {
        guard case .object(let object) = self else { return self }
        return .object(object.filter { !keys.contains($0.key) })
    }
}
