/// `ipdata help [COMMAND]`: the help of `ipdata`, or of one command, as `--help` prints it.
enum HelpCommand {
    static let options = [CommonOptions.help, CommonOptions.version]

    /// The commands `help` names, as usage lists them: `bulk | init | help`.
    private static let commandNames = IPDataCommand.Command.allCases.filter { $0 != .lookup }.map(\.rawValue)
        .joined(separator: " | ")

    static let help = HelpText(
        usage: ["ipdata help [\(commandNames)]"],
        summary: """
            Show the help of ipdata, or of one of its commands (the same as its --help):

              ipdata help
              ipdata help bulk
            """,
        options: options)

    /// Prints the help that `parsed` names: `ipdata`'s without a command name.
    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitStatus {
        let names = parsed.positionals
        guard names.count <= 1 else { throw UsageError("help takes one command name: ipdata help [\(commandNames)]") }
        guard let name = names.first else {
            console.printOutput(LookupCommand.help.rendered)
            return .success
        }
        guard let command = IPDataCommand.Command(rawValue: name), command != .lookup else {
            if let meant = IPDataCommand.Command.meant(by: name) {
                throw UsageError("there is no command \(name): did you mean \(meant.rawValue)?")
            }
            throw UsageError("there is no command \(name): ipdata help [\(commandNames)]")
        }
        console.printOutput(command.helpText.rendered)
        return .success
    }
}
