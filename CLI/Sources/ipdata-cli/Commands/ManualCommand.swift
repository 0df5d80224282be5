import ArgumentParser
import IPData

/// `ipdata man`: the manual page, `ipdata.1`, in roff, made from the help that `--help` prints
/// for `ipdata` and each command, so that every command and option is in it.
struct ManualCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "man",
        abstract: "print the manual page",
        usage: "ipdata man",
        discussion: HelpProse.flowed(
            """
            Print the manual page (roff), made from the commands' help:

              ipdata man > /usr/local/share/man/man1/ipdata.1
              ipdata man | man -l -
            """))

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(help: .private) var extra: [String] = []

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
        }
    }

    func run(environment: [String: String], console: Console) throws -> ExitStatus {
        guard extra.isEmpty else { throw UsageError("man takes no arguments") }
        console.printOutput(Self.page(width: HelpProse.width))
        return .success
    }

    /// The page at 80 columns, as to a file or a pipe (see `page(width:)`).
    static var page: String { page() }

    /// The page: the name, the usage of each command, ipdata's help as the description, and each
    /// command's help in a section of its own. Help is fitted to a page `width` columns wide
    /// (`ipdata man` gives the terminal's, or `COLUMNS`, or 80 to a file or a pipe) once man has
    /// indented it: roff shows it as it is.
    static func page(width: Int = Terminal.defaultWidth) -> String {
        // man indents a section's text by 7 columns: the help is narrower by as much.
        let width = max(20, width - 7)
        var lines = [
            ".TH IPDATA 1 \"\" \"ipdata \(IPDataClient.sdkVersion)\" \"User Commands\"",
            ".SH NAME",
            "ipdata \\- IP geolocation, network, company and threat data from the ipdata.co API",
            ".SH SYNOPSIS",
        ]
        let commands = IPDataCommand.commands
        let usages = [LookupCommand.configuration.usage ?? ""] + commands.map { $0.configuration.usage ?? "" }
        for usage in usages {
            lines +=
                [".nf"] + HelpProse.fitted(usage, width: width).split(separator: "\n").map { escaped(String($0)) }
                + [".fi"]
        }
        lines +=
            [".SH DESCRIPTION"]
            + preformatted(IPDataCommand.helpMessage(for: LookupCommand.self, columns: width), width: width)
        lines += [".SH COMMANDS"]
        for command in commands {
            let name = command.configuration.commandName ?? ""
            lines += [".SS \(name)"]
            lines += preformatted(IPDataCommand.helpMessage(for: command, columns: width), width: width)
            // The commands of a command (`cidr aggregate`), each with its own help.
            for subcommand in command.configuration.subcommands {
                lines += [".SS \(name) \(subcommand.configuration.commandName ?? "")"]
                lines += preformatted(IPDataCommand.helpMessage(for: subcommand, columns: width), width: width)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` fitted to `width` (see `HelpProse.fitted`), line for line, in a block that roff
    /// neither fills nor adjusts.
    private static func preformatted(_ text: String, width: Int) -> [String] {
        [".nf"]
            + HelpProse.fitted(text, width: width).split(separator: "\n", omittingEmptySubsequences: false).map {
                escaped(String($0))
            } + [".fi"]
    }

    /// `text` safe in roff: backslashes and hyphens written out, characters beyond ASCII as
    /// `\[u2026]`, and no line read as a request.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
