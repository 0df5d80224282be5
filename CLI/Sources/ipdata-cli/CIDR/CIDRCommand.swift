import ArgumentParser

/// `ipdata cidr aggregate|range|match`: a toolbox for address ranges and blocklists, which
/// sends no request and needs no key.
struct CIDRCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "cidr",
        abstract: "merge networks, convert ranges, keep the lines inside networks",
        usage: "ipdata cidr aggregate [FILE… | -]\nipdata cidr range [RANGE | CIDR …]\n"
            + "ipdata cidr match (-n CIDR | --networks FILE)… [-v] [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Work with IPv4 and IPv6 networks and ranges, offline: no API key, no request.

              aggregate  the fewest CIDRs that cover the addresses and networks of a list
              range      the CIDRs of a range A-B, or the range first-last of a CIDR
              match      the lines whose address is inside the networks (-v: outside)

            Lists hold one entry a line; blank lines and comments (from #) are skipped, and
            CRLF line ends and a byte order mark are fine. ::ffff:1.2.3.4 is the IPv4 address
            1.2.3.4, as everywhere in ipdata. See ipdata cidr COMMAND --help.

              ipdata cidr aggregate blocklist.txt > blocklist.cidr
              ipdata cidr range 10.0.0.5-10.0.0.20
              ipdata cidr match --networks blocklist.txt access.log
            """),
        subcommands: [CIDRAggregateCommand.self, CIDRRangeCommand.self, CIDRMatchCommand.self])

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        throw UsageError("cidr takes a command: ipdata cidr aggregate | range | match")
    }
}

extension ToolCommand {
    /// `ipdata cidr NAME --help`, for the commands of `ipdata cidr`.
    static var cidrHelpCommand: String { "ipdata cidr \(configuration.commandName ?? "") --help" }
}
