import Foundation

/// JSON-RPC 2.0 as MCP's stdio transport carries it: one message a line, each a request, a
/// notification, a response, or (in protocol versions that allow them) a batch of these.
///
/// `read(_:maximumDepth:)` turns one line into messages or into the error the specification
/// names for it; the other functions build the messages the server sends. Nothing here throws:
/// whatever a line holds, the caller gets something to answer with.
enum JSONRPC {
    /// The error codes of JSON-RPC 2.0.
    enum Code: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
    }

    /// One message of the client's.
    enum Message: Equatable {
        /// A call that wants an answer; `id` is a string or an integer, as MCP requires.
        case request(id: JSONValue, method: String, params: [String: JSONValue])
        /// A message that wants none.
        case notification(method: String, params: [String: JSONValue])
        /// An answer to a request of the server's (which sends none): ignored.
        case response
    }

    /// What a line held: one message, a batch of them (each element read on its own), or a
    /// failure to answer with.
    enum Incoming: Equatable {
        case single(Message)
        case batch([Result<Message, Failure>])
        case failure(Failure)
    }

    /// A message that cannot be handled, with the id to answer it with (`null` when it has none
    /// that can be read) and the error's code and text.
    struct Failure: Error, Equatable {
        let id: JSONValue
        let code: Code
        let message: String
    }

    /// Reads one line (without its line end). JSON that nests deeper than `maximumDepth` is a
    /// parse error before it is parsed, so depth costs no stack.
    static func read(_ line: Data, maximumDepth: Int) -> Incoming {
        if let depth = nestingDepth(line, limit: maximumDepth), depth > maximumDepth {
            return .failure(Failure(id: .null, code: .parseError, message: "JSON nests deeper than \(maximumDepth)"))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure(Failure(id: .null, code: .parseError, message: "Parse error: \(error)"))
        }
        if case .array(let elements) = value {
            guard !elements.isEmpty else {
                return .failure(Failure(id: .null, code: .invalidRequest, message: "an empty batch"))
            }
            return .batch(elements.map(message(from:)))
        }
        switch message(from: value) {
        case .success(let message): return .single(message)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// The message `value` is, or why it is none.
    static func message(from value: JSONValue) -> Result<Message, Failure> {
        guard case .object(let object) = value else {
            return .failure(Failure(id: .null, code: .invalidRequest, message: "a message must be a JSON object"))
        }
        let id = object["id"]
        let validID: JSONValue? = {
            switch id {
            case .string?, .integer?: return id
            default: return nil
            }
        }()
        let answerID = validID ?? .null
        guard object["jsonrpc"] == .string("2.0") else {
            return .failure(Failure(id: answerID, code: .invalidRequest, message: #"jsonrpc must be "2.0""#))
        }
        guard let methodValue = object["method"] else {
            if object["result"] != nil || object["error"] != nil { return .success(.response) }
            return .failure(Failure(id: answerID, code: .invalidRequest, message: "a request needs a method"))
        }
        guard case .string(let method) = methodValue else {
            return .failure(Failure(id: answerID, code: .invalidRequest, message: "method must be a string"))
        }
        var params: [String: JSONValue] = [:]
        switch object["params"] {
        case nil: break
        case .object(let given)?: params = given
        case .array?:
            return .failure(Failure(id: answerID, code: .invalidParams, message: "params must be an object"))
        default:
            return .failure(Failure(id: answerID, code: .invalidRequest, message: "params must be an object"))
        }
        guard id != nil else { return .success(.notification(method: method, params: params)) }
        guard let validID else {
            return .failure(Failure(id: .null, code: .invalidRequest, message: "id must be a string or an integer"))
        }
        return .success(.request(id: validID, method: method, params: params))
    }

    /// The answer to request `id`.
    static func response(id: JSONValue, result: JSONValue) -> JSONValue {
        .object(["jsonrpc": .string("2.0"), "id": id, "result": result])
    }

    /// The error answer to request `id` (`null` when it could not be read).
    static func errorResponse(id: JSONValue, code: Code, message: String) -> JSONValue {
        .object([
            "jsonrpc": .string("2.0"), "id": id,
            "error": .object(["code": .integer(code.rawValue), "message": .string(message)]),
        ])
    }

    /// The error answer for `failure`.
    static func errorResponse(_ failure: Failure) -> JSONValue {
        errorResponse(id: failure.id, code: failure.code, message: failure.message)
    }

    /// A notification of the server's.
    static func notification(method: String, params: [String: JSONValue]) -> JSONValue {
        .object(["jsonrpc": .string("2.0"), "method": .string(method), "params": .object(params)])
    }

    /// How deep the arrays and objects of `text` nest, read past strings; counting stops one
    /// beyond `limit`. Nil for text whose brackets do not balance (the parser says where).
    static func nestingDepth(_ text: Data, limit: Int) -> Int? {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit { return deepest }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth < 0 { return nil }
            default: break
            }
        }
        return deepest
    }
}
