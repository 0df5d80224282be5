import IPData

/// `ipdata man`: the manual page, `ipdata.1`, in roff, written from the same help texts and
/// option tables as `--help`, so that every option is in it.
enum ManualCommand {
    static let options = [CommonOptions.help, CommonOptions.version]

    static let help = HelpText(
        usage: ["ipdata man"],
        summary: """
            Print the manual page (roff), made from the commands' help:

              ipdata man > /usr/local/share/man/man1/ipdata.1
              ipdata man | man -l -
            """,
        options: options)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitStatus {
        guard parsed.positionals.isEmpty else { throw UsageError("man takes no arguments") }
        console.printOutput(page)
        return .success
    }

    /// The page.
    static var page: String {
        var lines = [
            ".TH IPDATA 1 \"\" \"ipdata \(IPDataClient.sdkVersion)\" \"User Commands\"",
            ".SH NAME",
            "ipdata \\- IP geolocation, network, company and threat data from the ipdata.co API",
            ".SH SYNOPSIS",
        ]
        let lookup = IPDataCommand.Command.lookup.helpText
        // The lookup's own usage, then each command's (the lookup's help lists theirs in short).
        let usages = lookup.usage.prefix(1) + IPDataCommand.Command.allCases.dropFirst().flatMap(\.helpText.usage)
        for usage in usages { lines += [".nf", escaped(usage), ".fi"] }
        lines += [".SH DESCRIPTION"] + paragraphs(lookup.summary)
        lines += [".SH OPTIONS"] + optionLines(lookup.options)
        lines += [".SH COMMANDS"]
        for command in IPDataCommand.Command.allCases where command != .lookup {
            let help = command.helpText
            lines += [".SS \(command.rawValue)"]
            for usage in help.usage { lines += [".nf", escaped(usage), ".fi"] }
            lines += paragraphs(help.summary) + optionLines(help.options)
            if !help.footer.isEmpty { lines += paragraphs(help.footer) }
        }
        lines += [".SH NOTES"] + paragraphs(lookup.footer)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func optionLines(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option -> [String] in
            let names = ([option.short.map { "\\-\($0)" }] + ["\\-\\-" + escaped(option.name)]).compactMap { $0 }
            let value = option.valueName.map { " \\fI" + escaped($0) + "\\fR" } ?? ""
            return [".TP", "\\fB" + names.joined(separator: ", ") + "\\fR" + value, escaped(option.help)]
        }
    }

    /// The text's paragraphs; indented lines (examples) kept as they are.
    private static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = [".PP"]
        var inExample = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.isEmpty {
                if inExample { lines.append(".fi") }
                inExample = false
                lines.append(".PP")
            } else if line.hasPrefix("  ") {
                if !inExample { lines += [".nf", ".RS 2"] }
                inExample = true
                lines.append(escaped(String(line.drop { $0 == " " })))
            } else {
                if inExample { lines += [".RE", ".fi"] }
                inExample = false
                lines.append(escaped(line))
            }
        }
        if inExample { lines += [".RE", ".fi"] }
        return lines
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
