// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The values completion offers for an option are the values the command takes: each one is
/// accepted by the built binary, and a value it does not offer is refused.
final class CompletionValueTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    func testEveryValueOfferedIsTakenByItsCommand() throws {
        var checked = 0
        for command in IPDataCommand.Command.allCases {
            let word = command == .lookup ? [] : [command.rawValue]
            for option in command.options {
                guard case .words(let values) = CompletionCommand.valueCompletion(of: option),
                    option != LookupCommand.fieldOption
                else { continue }
                for value in values + ["bogus"] {
                    let run = try ipdata(
                        word + ["--\(option.name)", value, "--sandbox", "-q", "-"], key: .absent, stdin: "8.8.8.8\n")
                    let refused = run.status == 2 && run.stderr.contains("--\(option.name) must be")
                    XCTAssertEqual(refused, value == "bogus", "\(command) --\(option.name) \(value): \(run.stderr)")
                    checked += 1
                }
            }
        }
        // The lookup's, bulk's and summarize's --format, and enrich's --as.
        XCTAssertEqual(checked, 5 + 5 + 3 + 5)
    }
}
#endif
