import DiskCache
import Foundation
import IPData

/// The tools `ipdata mcp` offers an agent: their names, descriptions and JSON Schemas
/// (`definitions`), and what a call of each does (`call(_:arguments:progress:)`).
///
/// Every call is bounded (`Limits`), and every call that may send requests asks the session's
/// `RequestBudget` first, for as many requests as the dry run counts. A tool's failure is its
/// result (`isError`), as MCP asks, so that the agent reads why.
struct MCPTools: Sendable {
    /// The bounds of one call's input.
    struct Limits: Sendable {
        /// Addresses of one `bulk_lookup` or `summarize` call.
        var addressesPerCall = 1_000
        /// Addresses of one `estimate` call (no request is sent).
        var addressesPerEstimate = 10_000
        /// Bytes of `extract_addresses`'s text.
        var textBytes = 1 << 20
        /// Addresses `extract_addresses` returns.
        var extractedAddresses = 10_000
        /// Fields of one lookup.
        var fields = 50
    }

    /// A call's outcome: a structured result with its text, or a failure's text.
    struct Outcome: Equatable {
        var structured: JSONValue?
        var text: String
        var isError = false

        /// A failure the agent reads.
        static func failure(_ text: String) -> Outcome { Outcome(structured: nil, text: text, isError: true) }

        /// The result of `tools/call`: a text block, and the structured content when there is one.
        var json: JSONValue {
            var object: [String: JSONValue] = [
                "content": .array([.object(["type": .string("text"), "text": .string(text)])]),
                "isError": .bool(isError),
            ]
            if let structured { object["structuredContent"] = structured }
            return .object(object)
        }
    }

    /// Arguments that do not fit a tool's schema or limits.
    struct ArgumentError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    let client: IPDataClient
    /// The disk cache the client reads and fills, for the estimates; nil with `--no-cache`.
    let cache: SQLiteLookupStore?
    let budget: RequestBudget
    var limits = Limits()
    /// Whether the plan refused a bulk request: later calls then send single lookups.
    private let sendsSingleLookups = Locked(false)

    init(client: IPDataClient, cache: SQLiteLookupStore?, budget: RequestBudget, limits: Limits = Limits()) {
        self.client = client
        self.cache = cache
        self.budget = budget
        self.limits = limits
    }

    /// The names of the tools, as `tools/list` lists them.
    static let names = ["lookup", "bulk_lookup", "asn", "extract_addresses", "summarize", "estimate"]

    /// Calls tool `name`; nil when there is no such tool (a protocol error, not a result).
    /// `progress` is told how many of how many entries are done, for bulk calls.
    func call(
        _ name: String, arguments: [String: JSONValue], progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async -> Outcome? {
        guard Self.names.contains(name) else { return nil }
        do {
            switch name {
            case "lookup": return try await lookup(arguments)
            case "bulk_lookup": return try await bulkLookup(arguments, progress: progress)
            case "asn": return try await asn(arguments)
            case "extract_addresses": return try extractAddresses(arguments)
            case "summarize": return try await summarize(arguments, progress: progress)
            default: return try await estimate(arguments)
            }
        } catch let error as ArgumentError {
            return .failure("invalid arguments: \(error.message)")
        } catch let refusal as RequestBudget.Refusal {
            return .failure(refusal.description)
        } catch let error as IPDataError {
            return .failure(error.commandLineMessage)
        } catch is CancellationError {
            return .failure("cancelled")
        } catch {
            return .failure(String(describing: error))
        }
    }

    // MARK: The tools

    private func lookup(_ arguments: [String: JSONValue]) async throws -> Outcome {
        try Self.allow(["ip", "fields"], in: arguments)
        guard case .string(let ip)? = arguments["ip"], !ip.isEmpty, ip.utf8.count <= 100 else {
            throw ArgumentError("ip must be one IP address, such as 8.8.8.8 or 2001:4860:4860::8888")
        }
        let fields = try self.fields(arguments)
        let (items, _) = try await lookUp([ip], fields: fields, singleLookups: true, keepsJSON: true, progress: nil)
        guard let item = items.first else { return .failure("no result") }
        if let error = item.error { return .failure("\(ip): \(error.commandLineMessage)") }
        let structured = JSONValue.object(try Self.record(item))
        return Outcome(structured: structured, text: structured.jsonText())
    }

    private func bulkLookup(_ arguments: [String: JSONValue], progress: (@Sendable (Int, Int) -> Void)?)
        async throws -> Outcome
    {
        try Self.allow(["addresses", "fields"], in: arguments)
        let addresses = try self.addresses(arguments, limit: limits.addressesPerCall)
        let fields = try self.fields(arguments)
        let (items, requests) = try await lookUp(
            addresses, fields: fields, singleLookups: nil, keepsJSON: true, progress: progress)
        let results = try items.map(Self.record)
        let failed = results.filter { $0["error"] != nil }.count
        let structured = JSONValue.object([
            "results": .array(results.map(JSONValue.object)), "succeeded": .integer(results.count - failed),
            "failed": .integer(failed), "requests_estimated": .integer(requests),
            "budget_left": .integer(budget.left),
        ])
        return Outcome(structured: structured, text: structured.jsonText())
    }

    private func asn(_ arguments: [String: JSONValue]) async throws -> Outcome {
        try Self.allow(["asn"], in: arguments)
        let text: String
        switch arguments["asn"] {
        case .string(let given)?: text = given
        case .integer(let number)?: text = String(number)
        default: throw ArgumentError("asn must be an autonomous system number, such as AS15169 or 15169")
        }
        guard ASNumber.isASN(text) else {
            throw ArgumentError("asn must be an autonomous system number, such as AS15169 or 15169")
        }
        try budget.reserve(1)
        defer { budget.release(1) }
        let detail = try await client.lookupASN(text)
        let structured = JSONValue.object(try Record(encoding: detail, selection: nil))
        return Outcome(structured: structured, text: structured.jsonText())
    }

    private func extractAddresses(_ arguments: [String: JSONValue]) throws -> Outcome {
        try Self.allow(["text", "unique", "public_only"], in: arguments)
        guard case .string(let text)? = arguments["text"] else { throw ArgumentError("text must be a string") }
        guard text.utf8.count <= limits.textBytes else {
            throw ArgumentError("text is \(text.utf8.count) bytes; at most \(limits.textBytes) are read in one call")
        }
        let unique = try Self.flag("unique", in: arguments)
        let publicOnly = try Self.flag("public_only", in: arguments)
        var found: [String] = []
        var seen: Set<String> = []
        var truncated = false
        let limit = limits.extractedAddresses
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            AddressScanner().scan(UnsafeBufferPointer(buffer)) { match in
                if publicOnly, match.address.scope != .public { return match.range.upperBound }
                let address = match.text
                if unique, !seen.insert(address).inserted { return match.range.upperBound }
                guard found.count < limit else {
                    truncated = true
                    return nil
                }
                found.append(address)
                return match.range.upperBound
            }
        }
        let structured = JSONValue.object([
            "addresses": .array(found.map(JSONValue.string)), "count": .integer(found.count),
            "truncated": .bool(truncated),
        ])
        return Outcome(structured: structured, text: structured.jsonText())
    }

    private func summarize(_ arguments: [String: JSONValue], progress: (@Sendable (Int, Int) -> Void)?)
        async throws -> Outcome
    {
        try Self.allow(["addresses", "top"], in: arguments)
        let addresses = try self.addresses(arguments, limit: limits.addressesPerCall)
        var top = 10
        if let given = arguments["top"] {
            guard case .integer(let number) = given, (1...100).contains(number) else {
                throw ArgumentError("top must be a whole number from 1 to 100")
            }
            top = number
        }
        let (items, requests) = try await lookUp(
            addresses, fields: nil, singleLookups: nil, keepsJSON: false, progress: progress)
        var summary = Summary()
        var cost = Summary.Cost()
        cost.requests = requests
        for (address, item) in zip(addresses, items) where summary.shouldLookUp(address) {
            summary.add(lookedUp: address, response: item.response)
        }
        let text = summary.table(top: top, cost: cost)
        let figures = (try? JSONParser.parse(Data(summary.json(top: top, cost: cost).utf8))) ?? .object([:])
        let structured = JSONValue.object(["text": .string(text), "summary": figures])
        return Outcome(structured: structured, text: text)
    }

    private func estimate(_ arguments: [String: JSONValue]) async throws -> Outcome {
        try Self.allow(["addresses", "fields"], in: arguments)
        let addresses = try self.addresses(arguments, limit: limits.addressesPerEstimate)
        let fields = try self.fields(arguments)
        let singleLookups = sendsSingleLookups.withLock { $0 }
        let dryRun = try await DryRun.count(Self.stream(addresses), cache: cache, fields: fields)
        let requests = dryRun.requests(singleLookups: singleLookups)
        let structured = JSONValue.object([
            "addresses": .integer(dryRun.addresses), "distinct": .integer(dryRun.distinct),
            "cached": .integer(dryRun.cached), "answered_locally": .integer(dryRun.answeredLocally),
            "invalid": .integer(dryRun.notAddresses), "to_send": .integer(dryRun.toSend),
            "requests": .integer(requests),
            "budget": .object([
                "limit": .integer(budget.limit), "used": .integer(budget.used), "left": .integer(budget.left),
            ]),
            "text": .string(dryRun.text(singleLookups: singleLookups)),
        ])
        return Outcome(structured: structured, text: dryRun.text(singleLookups: singleLookups))
    }

    // MARK: Lookups within the budget

    /// One result per address of `addresses`, in their order, and the requests granted; with
    /// `keepsJSON`, each answer's bytes as the API sent them. Each distinct address is looked up once,
    /// after the budget granted the requests the dry run counts; private and reserved addresses
    /// are answered locally, cached ones from the disk cache. `singleLookups` nil: bulk requests
    /// unless the plan refused one.
    private func lookUp(
        _ addresses: [String], fields: [String]?, singleLookups: Bool?, keepsJSON: Bool,
        progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> (items: [IPLookupResult], requests: Int) {
        var distinct: [String] = []
        var indexOf: [String: Int] = [:]
        let keys = addresses.map { IPAddress($0)?.description ?? "\u{0}" + $0 }
        for (address, key) in zip(addresses, keys) where indexOf[key] == nil {
            indexOf[key] = distinct.count
            distinct.append(address)
        }
        let single = singleLookups ?? sendsSingleLookups.withLock { $0 }
        let dryRun = try await DryRun.count(Self.stream(distinct), cache: cache, fields: fields)
        let requests = dryRun.requests(singleLookups: single)
        try budget.reserve(requests)
        defer { budget.release(requests) }
        var options = LookupStreamOptions(concurrency: 4, fallsBackToSingleLookups: false)
        options.sendsNonPublicAddresses = false
        options.startsWithSingleLookups = single
        options.keepsJSON = keepsJSON
        var answers: [IPLookupResult] = []
        answers.reserveCapacity(distinct.count)
        let step = max(1, distinct.count / 20)
        for try await item in client.lookupStream(distinct, fields: fields, options: options) {
            try Task.checkCancellation()
            answers.append(item)
            if let error = item.error, case .forbidden(let message) = error, message == APIMessage.bulkNotInPlan {
                sendsSingleLookups.withLock { $0 = true }
            }
            if let progress, answers.count % step == 0 || answers.count == distinct.count {
                progress(answers.count, distinct.count)
            }
        }
        try Task.checkCancellation()
        guard answers.count == distinct.count else { throw CancellationError() }
        return (keys.map { answers[indexOf[$0] ?? 0] }, requests)
    }

    /// The record of one result: the API's answer under `result` (its bytes as sent, when kept),
    /// or the error's text.
    private static func record(_ item: IPLookupResult) throws -> Record {
        switch item.result {
        case .success where item.json != nil:
            return ["ip": .string(item.ip), "result": .object(try Record(json: item.json ?? Data(), selection: nil))]
        case .success(let response):
            return ["ip": .string(item.ip), "result": .object(try Record(encoding: response, selection: nil))]
        case .failure(let error):
            return ["ip": .string(item.ip), "error": .string(error.commandLineMessage)]
        }
    }

    // MARK: Arguments

    private static func allow(_ names: Set<String>, in arguments: [String: JSONValue]) throws {
        if let unknown = arguments.keys.sorted().first(where: { !names.contains($0) }) {
            throw ArgumentError(
                "unknown argument \(unknown); this tool takes \(names.sorted().joined(separator: ", "))")
        }
    }

    private static func flag(_ name: String, in arguments: [String: JSONValue]) throws -> Bool {
        switch arguments[name] {
        case nil: return false
        case .bool(let value)?: return value
        default: throw ArgumentError("\(name) must be true or false")
        }
    }

    private func addresses(_ arguments: [String: JSONValue], limit: Int) throws -> [String] {
        guard case .array(let values)? = arguments["addresses"], !values.isEmpty else {
            throw ArgumentError("addresses must be an array of 1 to \(limit) IP addresses")
        }
        guard values.count <= limit else {
            throw ArgumentError("\(values.count) addresses given; at most \(limit) in one call")
        }
        return try values.map { value in
            guard case .string(let address) = value, address.utf8.count <= 100 else {
                throw ArgumentError("each address must be a string of at most 100 bytes")
            }
            return address.trimmingCharacters(in: .whitespaces)
        }
    }

    private func fields(_ arguments: [String: JSONValue]) throws -> [String]? {
        guard let given = arguments["fields"] else { return nil }
        guard case .array(let values) = given, values.count <= limits.fields else {
            throw ArgumentError("fields must be an array of at most \(limits.fields) field names")
        }
        let names = try values.map { value -> String in
            guard case .string(let name) = value, !name.isEmpty, name.utf8.count <= 64 else {
                throw ArgumentError("each field must be a name such as country_code or asn")
            }
            guard IPResponse.fieldNames.contains(name) else {
                let meant = Spelling.closest(to: name, among: IPResponse.fieldNames).map { " (did you mean \($0)?)" }
                throw ArgumentError(
                    "no field \(name)\(meant ?? ""); the fields are " + IPResponse.fieldNames.joined(separator: ", "))
            }
            return name
        }
        guard !names.isEmpty else { return nil }
        // The answer's address is always asked for: each record names its address.
        return names.contains("ip") ? names : ["ip"] + names
    }

    private static func stream(_ addresses: [String]) -> AsyncStream<String> {
        AsyncStream { continuation in
            for address in addresses { continuation.yield(address) }
            continuation.finish()
        }
    }
}
