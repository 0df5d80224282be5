import ArgumentParser
import CLILibC

/// `ipdata cidr aggregate [FILE…|-]`: the fewest CIDRs that cover exactly the addresses and
/// networks of the input, IPv4 first, then IPv6, each in order.
struct CIDRAggregateCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggregate",
        abstract: "merge addresses and networks into the fewest CIDRs",
        usage: "ipdata cidr aggregate [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Read addresses and networks, one a line, from the files (or standard input, -, the
            default), and print the fewest CIDRs that cover exactly their union: overlapping and
            adjacent networks joined, IPv4 first and then IPv6, each in order. A network with host
            bits set (10.0.0.1/8) counts as its network (10.0.0.0/8), and ::ffff:1.2.3.4 as
            1.2.3.4. Blank lines and comments (from #) are skipped. The whole list is held in
            memory (tens of bytes an entry) and sorted once.

              ipdata cidr aggregate drop.txt edrop.txt > blocklist.cidr
              ipdata grep -o --public access.log | ipdata cidr aggregate

            Exit status: 0 every line was an address or network; 1 some were not (each is named
            on standard error; the others are aggregated); 2 usage error, or an input could not
            be read.
            """))

    static var helpCommand: String { cidrHelpCommand }

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(help: ArgumentHelp("lists of addresses and networks; - or none: standard input"), completion: .file())
    var files: [String] = []

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
            if files.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read once") }
        }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let inputs = files.isEmpty ? ["-"] : files
        if inputs.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading addresses and networks from standard input; end with Ctrl-D")
        }
        var intervals: [AddressInterval] = []
        var someLineBad = false
        let allRead = try await ListInput(names: inputs).forEachEntry(console: console) { entry in
            guard let interval = AddressInterval(addressOrNetwork: entry.text) else {
                console.error("\(entry.place): \(AddressInterval.quoted(entry.text)) is no address or network")
                someLineBad = true
                return
            }
            intervals.append(interval)
        }
        let output = GrepOutput(escapesControlCharacters: false)
        for interval in AddressInterval.merged(intervals) {
            for network in interval.networks {
                guard output.write(line: "\(network.address)/\(network.prefixLength)") else { return .success }
            }
        }
        guard output.flush() else { return .success }
        return !allRead ? .usage : someLineBad ? .lookupFailed : .success
    }
}
