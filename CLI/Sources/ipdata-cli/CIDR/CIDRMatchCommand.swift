import ArgumentParser
import CLILibC
import IPData

/// `ipdata cidr match (-n CIDR)… [--networks FILE]… [-v] [FILE…|-]`: the lines of text that
/// hold an address inside the networks, found by `AddressScanner` as `ipdata grep` finds them;
/// with `-v`, the lines that hold an address and none inside.
struct CIDRMatchCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "keep the lines whose address is inside a list of networks",
        usage: "ipdata cidr match (-n CIDR | --networks FILE)… [-v] [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Print the lines of the files (or standard input, -, the default) that hold an address
            inside any of the networks, byte for byte as they are (CR included); with -v, the
            lines that hold an address and none inside. Addresses are found in any text, as
            ipdata grep finds them (1.2.3.4:443, [2001:db8::1]:8080, ::ffff:1.2.3.4 as 1.2.3.4).
            Networks come from -n and from lists (--networks FILE: one address or network a line,
            comments from #); a network with host bits set counts as its network. Lists of any
            length are merged once and searched by halves: a long list costs little more than a
            short one.

              ipdata cidr match -n 10.0.0.0/8 -n fc00::/7 access.log
              ipdata cidr match -v --networks office.txt /var/log/auth.log

            Exit status: 0 a line was printed; 1 none was; 2 usage error (no network given, a bad
            network), or an input could not be read (it is named on standard error; the other
            inputs are still searched).
            """))

    @Option(
        name: [.customShort("n"), .customLong("network")],
        help: ArgumentHelp("a network (10.0.0.0/8) or address to match; may be repeated", valueName: "cidr"))
    var networks: [String] = []

    @Option(
        name: .customLong("networks"),
        help: ArgumentHelp("a list of networks and addresses, one a line; may be repeated", valueName: "file"),
        completion: .file())
    var networkLists: [String] = []

    @Flag(
        name: [.customShort("v"), .customLong("invert-match")],
        help: "print the lines that hold an address and none inside the networks")
    var invert = false

    static var helpCommand: String { cidrHelpCommand }

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(help: ArgumentHelp("files of text; - or none: standard input"), completion: .file())
    var files: [String] = []

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
            if networks.isEmpty, networkLists.isEmpty {
                throw UsageError("give the networks to match: -n CIDR or --networks FILE")
            }
            if let bad = networks.first(where: { AddressInterval(addressOrNetwork: $0) == nil }) {
                throw UsageError("-n \(AddressInterval.quoted(bad)) is no network or address")
            }
            let inputs = (files.isEmpty ? ["-"] : files) + networkLists
            if inputs.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read once") }
        }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        guard let set = try await networkSet(console: console) else { return .usage }
        let inputs = files.isEmpty ? ["-"] : files
        if inputs.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading text from standard input; end with Ctrl-D")
        }
        let output = GrepOutput(escapesControlCharacters: Terminal.isTerminal(STDOUT_FILENO))
        var matcher = LineMatcher(networks: set, invert: invert, output: output)
        var someInputUnread = false
        for input in inputs {
            do {
                let reader =
                    input == "-"
                    ? LineReader.standardInput(
                        maximumLineLength: GrepCommand.maximumLineLength, expected: "text",
                        blockSize: GrepCommand.blockSize)
                    : try LineReader.file(
                        atPath: input, maximumLineLength: GrepCommand.maximumLineLength, expected: "text",
                        blockSize: GrepCommand.blockSize)
                while let lines = try await reader.nextLines() {
                    guard matcher.match(lines) else { return .success }  // standard output was closed
                }
            } catch let error as CommandError {
                guard output.flush() else { return .success }
                console.error(error.message)
                someInputUnread = true
            }
        }
        guard output.flush() else { return .success }
        if someInputUnread { return .usage }
        return matcher.printedAny ? .success : .lookupFailed
    }

    /// The networks of `-n` and of the lists; nil when a list could not be read (it is named on
    /// standard error), and a usage error for a line of a list that is no network.
    private func networkSet(console: Console) async throws -> NetworkSet? {
        var intervals = networks.compactMap { AddressInterval(addressOrNetwork: $0) }
        var badLine: String?
        let allRead = try await ListInput(names: networkLists).forEachEntry(console: console) { entry in
            guard let interval = AddressInterval(addressOrNetwork: entry.text) else {
                if badLine == nil { badLine = "\(entry.place): \(AddressInterval.quoted(entry.text))" }
                return
            }
            intervals.append(interval)
        }
        if let badLine { throw UsageError("\(badLine) is no network or address") }
        guard allRead else { return nil }
        return NetworkSet(intervals)
    }
}
