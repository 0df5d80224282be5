// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import XCTest

@testable import ipdata_cli

/// The commands of `ipdata cidr` in their help, the manual page and the completion scripts,
/// which ArgumentParser makes from the commands themselves.
final class CIDRHelpTests: XCTestCase {
    private let optionsOfCommands: [(any ToolCommand.Type, [String])] = [
        (CIDRAggregateCommand.self, []),
        (CIDRRangeCommand.self, []),
        (CIDRMatchCommand.self, ["network", "networks", "invert-match"]),
    ]

    func testEachCommandHasHelpItsOptionsAndAnExitStatus() {
        XCTAssertEqual(
            CIDRCommand.configuration.subcommands.map { "\($0)" }, optionsOfCommands.map { "\($0.0)" })
        for (command, options) in optionsOfCommands {
            let name = command.configuration.commandName ?? ""
            let help = IPDataCommand.helpMessage(for: command)
            XCTAssertTrue(help.contains("USAGE: ipdata cidr \(name)"), name)
            XCTAssertTrue(help.contains("Exit status: 0"), name)
            for option in options { XCTAssertTrue(help.contains("--\(option) "), "\(option) in \(name)") }
            // A lookup's options are no part of them.
            for option in CommandOptionsTests.sharedOptions {
                XCTAssertFalse(help.contains("--\(option) "), "\(option) in \(name)")
            }
            XCTAssertEqual(command.helpCommand, "ipdata cidr \(name) --help")
        }
        XCTAssertEqual(CIDRCommand.helpCommand, "ipdata cidr --help")
    }

    func testTheManualAndTheCompletionScriptsHaveEachCommandAndOption() {
        let page = ManualCommand.page
        let scripts = [
            CompletionCommand.script(for: .bash), CompletionCommand.script(for: .zsh),
            CompletionCommand.script(for: .fish),
        ]
        for (command, options) in optionsOfCommands {
            let name = command.configuration.commandName ?? ""
            XCTAssertTrue(page.contains("\n.SS cidr \(name)\n"), name)
            for script in scripts { XCTAssertTrue(script.contains(name), name) }
            for option in options {
                XCTAssertTrue(page.contains("\\-\\-" + ManualCommand.escaped(option)), option)
                XCTAssertTrue(scripts[0].contains("--\(option)") && scripts[1].contains("--\(option)"), option)
                XCTAssertTrue(scripts[2].contains("-l '\(option)'") || scripts[2].contains("-l \(option)"), option)
            }
        }
    }
}
#endif
