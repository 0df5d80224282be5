import ArgumentParser

/// `ipdata help [COMMAND]`: the help of `ipdata`, or of one command, as `--help` prints it.
struct HelpCommand: ToolCommand {
    /// The commands `help` names, as usage lists them: `bulk | grep | … | man` (this command's
    /// own configuration read by name, as it is being made).
    private static let commandNames = IPDataCommand.configuration.subcommands
        .filter { $0 != LookupCommand.self }
        .map { $0 == HelpCommand.self ? "help" : $0.configuration.commandName ?? "" }
        .joined(separator: " | ")

    static let configuration = CommandConfiguration(
        commandName: "help",
        abstract: "show the help of a command",
        usage: "ipdata help [\(commandNames)]",
        discussion: HelpProse.flowed(
            """
            Show the help of ipdata, or of one of its commands (the same as its --help):

              ipdata help
              ipdata help bulk
              ipdata help cidr match
            """))

    // Taken and left alone: `ipdata --sandbox help` shows the help.
    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(
        help: ArgumentHelp("a command", valueName: "command"),
        completion: .custom { _, _, _ in IPDataCommand.commandWords })
    var names: [String] = []

    /// The command whose help to show; nil for ipdata's own. A command's own commands follow
    /// its name (`ipdata help cidr match`).
    private func command() throws -> (any ToolCommand.Type)? {
        if names.count == 2,
            let parent = IPDataCommand.commands.first(where: { $0.configuration.commandName == names[0] }),
            let command = parent.configuration.subcommands.first(where: { $0.configuration.commandName == names[1] })
                as? any ToolCommand.Type
        {
            return command
        }
        guard names.count <= 1 else {
            throw UsageError("help takes one command name: ipdata help [\(Self.commandNames)]")
        }
        guard let name = names.first else { return nil }
        guard let command = IPDataCommand.commands.first(where: { $0.configuration.commandName == name }) else {
            if let meant = IPDataCommand.commandMeant(by: name) {
                throw UsageError("there is no command \(name): did you mean \(meant)?")
            }
            throw UsageError("there is no command \(name): ipdata help [\(Self.commandNames)]")
        }
        return command
    }

    func run(environment: [String: String], console: Console) throws -> ExitStatus {
        let text =
            try command().map { HelpProse.fitted(IPDataCommand.helpMessage(for: $0, columns: HelpProse.width)) }
            ?? IPDataCommand.toolHelp
        console.printOutput(text + "\n")
        return .success
    }
}
