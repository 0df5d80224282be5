import Foundation

extension MCPTools {
    /// The tools as `tools/list` lists them: name, title, description, `inputSchema` and
    /// `outputSchema` (JSON Schema 2020-12, each an object).
    static let definitions: [JSONValue] = [
        tool(
            "lookup", title: "Look up one IP address",
            description:
                "Location, network (ASN), company, carrier and threat data of one IPv4 or IPv6 address. Private "
                + "and reserved addresses are answered locally without a request; a cached answer costs nothing.",
            input: #"""
                {"type": "object", "additionalProperties": false, "required": ["ip"],
                 "properties": {
                   "ip": {"type": "string", "description": "an IPv4 or IPv6 address, such as 8.8.8.8"},
                   "fields": {"type": "array", "maxItems": 50, "items": {"type": "string"},
                              "description": "only these top-level fields of the answer, such as country_code, asn, threat"}}}
                """#,
            output: #"""
                {"type": "object", "required": ["ip", "result"],
                 "properties": {"ip": {"type": "string"}, "result": {"type": "object"}}}
                """#),
        tool(
            "bulk_lookup", title: "Look up many IP addresses",
            description:
                "Looks up 1 to 1000 addresses in bulk requests of up to 100. Returns one entry per address, in "
                + "input order: its answer under result, or its own error (not an address, private, refused); one "
                + "bad entry never fails the call. Each distinct address is sent once.",
            input: #"""
                {"type": "object", "additionalProperties": false, "required": ["addresses"],
                 "properties": {
                   "addresses": {"type": "array", "minItems": 1, "maxItems": 1000, "items": {"type": "string"}},
                   "fields": {"type": "array", "maxItems": 50, "items": {"type": "string"},
                              "description": "only these top-level fields of each answer"}}}
                """#,
            output: #"""
                {"type": "object", "required": ["results", "succeeded", "failed", "requests_estimated", "budget_left"],
                 "properties": {
                   "results": {"type": "array", "items": {"type": "object", "required": ["ip"],
                     "properties": {"ip": {"type": "string"}, "result": {"type": "object"}, "error": {"type": "string"}}}},
                   "succeeded": {"type": "integer"}, "failed": {"type": "integer"},
                   "requests_estimated": {"type": "integer"}, "budget_left": {"type": "integer"}}}
                """#),
        tool(
            "asn", title: "Look up an autonomous system",
            description: "An autonomous system's name, country, prefixes and peers (paid plans). One request.",
            input: #"""
                {"type": "object", "additionalProperties": false, "required": ["asn"],
                 "properties": {"asn": {"type": ["string", "integer"], "description": "AS15169, as15169 or 15169"}}}
                """#,
            output: #"""
                {"type": "object",
                 "properties": {"asn": {"type": ["string", "null"]}, "name": {"type": ["string", "null"]}}}
                """#),
        tool(
            "extract_addresses", title: "Find the IP addresses in a text",
            description:
                "The IPv4 and IPv6 addresses in a text (a log, an e-mail's headers, an alert), as `ipdata grep -o` "
                + "finds them: in canonical form, IPv4-mapped ones as IPv4; version numbers and times are none. "
                + "No request. At most 1 MiB of text and 10000 addresses.",
            input: #"""
                {"type": "object", "additionalProperties": false, "required": ["text"],
                 "properties": {
                   "text": {"type": "string", "description": "any text, at most 1048576 bytes"},
                   "unique": {"type": "boolean", "description": "each address once, in the order first found"},
                   "public_only": {"type": "boolean", "description": "leave out private and reserved addresses"}}}
                """#,
            output: #"""
                {"type": "object", "required": ["addresses", "count", "truncated"],
                 "properties": {"addresses": {"type": "array", "items": {"type": "string"}},
                   "count": {"type": "integer"}, "truncated": {"type": "boolean"}}}
                """#, sendsRequests: false),
        tool(
            "summarize", title: "Summarize a list of IP addresses",
            description:
                "Looks up 1 to 1000 addresses (as bulk_lookup) and returns `ipdata summarize`'s summary: totals, top "
                + "countries, networks, company types, threat counts, blocklists and the top addresses.",
            input: #"""
                {"type": "object", "additionalProperties": false, "required": ["addresses"],
                 "properties": {
                   "addresses": {"type": "array", "minItems": 1, "maxItems": 1000, "items": {"type": "string"}},
                   "top": {"type": "integer", "minimum": 1, "maximum": 100, "description": "how many of each list (default 10)"}}}
                """#,
            output: #"""
                {"type": "object", "required": ["text", "summary"],
                 "properties": {"text": {"type": "string"},
                   "summary": {"type": "object", "required": ["total", "unique", "public", "private", "failed"],
                     "properties": {"total": {"type": "integer"}, "unique": {"type": "integer"},
                       "public": {"type": "integer"}, "private": {"type": "integer"}, "failed": {"type": "integer"}}}}}
                """#),
        tool(
            "estimate", title: "Estimate what a list costs",
            description:
                "What looking up a list would cost, with no request (the dry run): distinct addresses, those the cache "
                + "or local rules answer, the requests to send, and the session's request budget.",
            input: #"""
                {"type": "object", "additionalProperties": false, "required": ["addresses"],
                 "properties": {
                   "addresses": {"type": "array", "minItems": 1, "maxItems": 10000, "items": {"type": "string"}},
                   "fields": {"type": "array", "maxItems": 50, "items": {"type": "string"}}}}
                """#,
            output: #"""
                {"type": "object",
                 "required": ["addresses", "distinct", "cached", "answered_locally", "invalid", "to_send", "requests", "budget", "text"],
                 "properties": {"addresses": {"type": "integer"}, "distinct": {"type": "integer"},
                   "cached": {"type": "integer"}, "answered_locally": {"type": "integer"}, "invalid": {"type": "integer"},
                   "to_send": {"type": "integer"}, "requests": {"type": "integer"}, "text": {"type": "string"},
                   "budget": {"type": "object", "required": ["limit", "used", "left"],
                     "properties": {"limit": {"type": "integer"}, "used": {"type": "integer"}, "left": {"type": "integer"}}}}}
                """#, sendsRequests: false),
    ]

    /// One tool's definition; its schemas are JSON text, read once.
    private static func tool(
        _ name: String, title: String, description: String, input: String, output: String, sendsRequests: Bool = true
    ) -> JSONValue {
        func schema(_ text: String) -> JSONValue {
            // The texts above are constants: a typo in one is a programming error, caught by the tests.
            (try? JSONParser.parse(Data(text.utf8))) ?? .object(["type": .string("object")])
        }
        return .object([
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": schema(input), "outputSchema": schema(output),
            // Hints for a client that asks before a call: every tool only reads; those that send
            // requests reach the API, the others nothing outside this process.
            "annotations": .object([
                "title": .string(title), "readOnlyHint": .bool(true), "destructiveHint": .bool(false),
                "idempotentHint": .bool(true), "openWorldHint": .bool(sendsRequests),
            ]),
        ])
    }
}
