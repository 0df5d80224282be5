import ArgumentParser

/// One command of `ipdata`, as `IPDataProgram` runs it: parsed and checked by ArgumentParser
/// (its `validate()` throws what is wrong with the options), then run with the environment and
/// the console, returning the exit status. The arguments are checked first thing in `run`:
/// ArgumentParser finds an unknown option only after `validate()`, and `ipdata init --fromat
/// json KEY` is about the option, not about two keys.
protocol ToolCommand: ParsableCommand {
    /// `--quiet`: routine notices and the progress line are left out (see `Console.isQuiet`).
    var isQuiet: Bool { get }

    /// How to ask for the command's help, for the end of a usage error's line.
    static var helpCommand: String { get }

    /// Runs the command; throws a `UsageError`, a `CommandError` or an `IPDataError` that ends it
    /// with one line on standard error.
    func run(environment: [String: String], console: Console) async throws -> ExitStatus
}

extension ToolCommand {
    var isQuiet: Bool { false }

    /// `ipdata NAME --help`; `ipdata --help` for the lookup.
    static var helpCommand: String {
        let name = configuration.commandName ?? ""
        return self == LookupCommand.self ? "ipdata --help" : "ipdata \(name) --help"
    }

    /// Runs `check`, a usage error thrown by it becoming ArgumentParser's `ValidationError`, so
    /// that it is reported as the command line's problem (see `CommandLineProblem`).
    func checked(_ check: () throws -> Void) throws {
        do {
            try check()
        } catch let error as UsageError {
            throw ValidationError(error.message)
        }
    }
}
