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

    /// The options that complete one of a few words, with the words offered (as the commands
    /// declare them, see `testBashCompletesEachCommandsOwnValues`).
    private let offered: [(command: [String], option: String, values: [String])] = [
        ([], "format", OutputFormat.allCases.map(\.rawValue)),
        (["bulk"], "format", OutputFormat.allCases.map(\.rawValue)),
        (["summarize"], "format", ["table", "json"]),
        (["enrich"], "as", EnrichCommand.asValues),
        (["enrich"], "input", EnrichCommand.Shape.allCases.map(\.rawValue)),
    ]

    func testEveryValueOfferedIsTakenByItsCommand() throws {
        var checked = 0
        for (word, option, values) in offered {
            for value in values + ["bogus"] {
                let run = try ipdata(
                    word + ["--\(option)", value, "--sandbox", "-q", "-"], key: .absent, stdin: "8.8.8.8\n")
                let refused = run.status == 2 && run.stderr.contains("--\(option) must be")
                XCTAssertEqual(refused, value == "bogus", "\(word) --\(option) \(value): \(run.stderr)")
                checked += 1
            }
        }
        // The lookup's, bulk's and summarize's --format, and enrich's --as and --input.
        XCTAssertEqual(checked, 7 + 7 + 3 + 7 + 7)
    }

    /// The words the completion script offers for those options are the words above.
    func testTheScriptOffersThoseWords() {
        let bash = CompletionCommand.script(for: .bash)
        for (_, _, values) in offered {
            let words = values.map { "'\($0)'" }.joined(separator: "$'\\n'")
            XCTAssertTrue(bash.contains("-W \(words)\n"), "\(values)")
        }
    }
}
#endif
