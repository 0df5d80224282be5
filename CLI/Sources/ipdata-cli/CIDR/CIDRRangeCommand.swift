import ArgumentParser
import CLILibC
import Foundation

/// `ipdata cidr range [RANGE|CIDR…]`: a range `A-B` as the CIDRs that cover it exactly, and a
/// CIDR as its range `first-last`.
struct CIDRRangeCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "range",
        abstract: "convert a range A-B to CIDRs, and a CIDR to its range",
        usage: "ipdata cidr range [RANGE | CIDR …]",
        discussion: HelpProse.flowed(
            """
            For each range A-B (both ends included, of one family, A not after B), print the
            fewest CIDRs that cover exactly that range, one a line; for each CIDR (or address),
            print its range first-last. They are read from the arguments, or else from standard
            input, one a line (blank lines and comments, from #, skipped).

              ipdata cidr range 10.0.0.5-10.0.0.20
              ipdata cidr range 2001:db8::/48
              ipdata cidr range < ranges.txt

            Exit status: 0 every one was a range or network; 1 some were not (each is named on
            standard error; the others are printed); 2 usage error, or standard input could not
            be read.
            """))

    static var helpCommand: String { cidrHelpCommand }

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(help: ArgumentHelp("ranges A-B and CIDRs; none: lines of standard input", valueName: "range-or-cidr"))
    var ranges: [String] = []

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
        }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        let output = GrepOutput(escapesControlCharacters: false)
        var someBad = false
        var isOpen = true
        func convert(_ text: Substring, place: String) {
            guard isOpen else { return }
            switch AddressInterval.rangeText(text) {
            case .range(let interval):
                for network in interval.networks where isOpen {
                    isOpen = output.write(line: "\(network.address)/\(network.prefixLength)")
                }
            case .network(let interval):
                isOpen = output.write(line: interval.rangeText)
            case .problem(let problem):
                // What was printed before it comes first, as it would on a terminal.
                isOpen = output.flush()
                console.error("\(place)\(AddressInterval.quoted(text)) \(problem)")
                someBad = true
            }
        }
        var allRead = true
        if ranges.isEmpty {
            if isatty(STDIN_FILENO) == 1 { console.note("reading ranges from standard input; end with Ctrl-D") }
            allRead = try await ListInput(names: ["-"]).forEachEntry(console: console) { entry in
                convert(entry.text, place: "\(entry.place): ")
            }
        } else {
            for range in ranges {
                convert(Substring(range.trimmingCharacters(in: .whitespaces)), place: "")
            }
        }
        guard isOpen, output.flush() else { return .success }
        return !allRead ? .usage : someBad ? .lookupFailed : .success
    }
}
