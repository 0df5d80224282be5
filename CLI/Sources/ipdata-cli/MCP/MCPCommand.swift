import ArgumentParser
import CLILibC
import Foundation
import IPData

/// `ipdata mcp`: an MCP server on standard input and output, for AI agents (Claude Desktop, IDEs)
/// that start it as a local tool. See `MCPServer` for the protocol, `MCPTools` for the tools.
struct MCPCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "serve lookups to AI agents over MCP, the Model Context Protocol",
        usage: "ipdata mcp [--max-requests N] [OPTIONS]",
        discussion: HelpProse.flowed(
            """
            Run an MCP server on standard input and output: JSON-RPC messages, one a line, as an
            MCP client (an agent, an IDE) sends them when it starts this command. Standard output
            carries nothing but MCP's messages; notices go to standard error.

            Tools: lookup (one address), bulk_lookup (up to 1000, one result or error per entry, in
            input order), asn, extract_addresses (the addresses in a text, as ipdata grep -o finds
            them; no request), summarize (ipdata summarize's summary of up to 1000 addresses) and
            estimate (the dry run: what a list costs; no request).

            The key comes from where every command reads it and never appears in a result, an
            error or a line of standard error. A session may send at most --max-requests
            requests (retries included); a call that would go beyond them is refused before it
            sends anything, saying what is left. Cached answers and private addresses cost
            nothing. Register it with a client as {"command": "ipdata", "args": ["mcp"]}.

              ipdata mcp                    serve with the key of ipdata init
              ipdata mcp --max-requests 20  a tighter budget for the session
              ipdata mcp --sandbox          sample data: no key, no network
            """))

    @Option(
        name: .customLong("max-requests"),
        help: ArgumentHelp(
            "the most requests the session may send, 0 to 1000000 (default 100); calls beyond are refused",
            valueName: "N"))
    var maxRequests: String?

    @OptionGroup var endpoint: EndpointOptions
    @OptionGroup var client: ClientOptions

    var isQuiet: Bool { client.quiet }

    /// The budget of a session without `--max-requests`.
    static let defaultMaxRequests = 100

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let common = try CommonOptions(client: client, endpoint: endpoint)
        let limit =
            try CommonOptions.wholeNumber(maxRequests, option: "max-requests", in: 0...1_000_000)
            ?? Self.defaultMaxRequests
        let (ipdata, cache) = try common.makeClientAndCache(environment: environment, console: console)
        let tools = MCPTools(client: ipdata, cache: cache, budget: RequestBudget(limit: limit, tally: .run))
        let writer = MessageWriter(fileDescriptor: STDOUT_FILENO)
        let server = MCPServer(tools: tools, redaction: console.keyRedaction, output: writer.send)
        // A client that goes away makes writes fail, which the writer notices; no signal ends the run.
        signal(SIGPIPE, SIG_IGN)
        if Terminal.isTerminal(STDIN_FILENO) {
            console.note("mcp: reading MCP messages on standard input (an MCP client starts this command)")
        }
        console.note("mcp: serving; the session may send \(limit) request\(limit == 1 ? "" : "s")")
        let reader = MessageReader(fileDescriptor: STDIN_FILENO, maximumLineBytes: server.limits.lineBytes)
        await reader.run(line: server.receive, oversized: server.receiveOversizedLine)
        // Standard input ended: the calls still running are answered before the run ends (a
        // client that went away makes their writes fail, which costs nothing).
        await server.waitUntilIdle()
        return .success
    }
}
