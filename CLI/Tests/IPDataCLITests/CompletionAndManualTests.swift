// The ipdata command runs on macOS and Linux: the bash tests start bash and the built binary
// with `Process`, which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import ArgumentParser
import Foundation
import XCTest

@testable import ipdata_cli

/// The completion scripts and the manual page are made from the commands themselves: every
/// command and option is in them.
final class CompletionAndManualTests: XCTestCase {
    private var commandWords: [String] { IPDataCommand.commandWords }

    func testTheManualPageHasEveryCommandAndOption() {
        let page = ManualCommand.page
        for command in commandWords {
            XCTAssertTrue(page.contains("\n.SS \(command)\n"), command)
        }
        for (command, options) in CommandOptionsTests.optionsOfCommands {
            for option in options {
                XCTAssertTrue(page.contains("\\-\\-" + ManualCommand.escaped(option)), "\(option) of \(command)")
            }
        }
        XCTAssertTrue(page.contains("\\-f, \\-\\-fields"))
        XCTAssertTrue(page.hasPrefix(".TH IPDATA 1 "))
        XCTAssertTrue(page.unicodeScalars.allSatisfy(\.isASCII), "characters beyond ASCII are escaped")
        for line in page.split(separator: "\n") where line.hasPrefix(".") {
            let request = line.dropFirst().prefix { $0 != " " }
            XCTAssertTrue(["TH", "SH", "SS", "PP", "TP", "nf", "fi", "RS", "RE"].contains(request), String(line))
        }
    }

    func testRoffEscaping() {
        XCTAssertEqual(ManualCommand.escaped("a-b \\ …"), "a\\-b \\e \\[u2026]")
        XCTAssertEqual(ManualCommand.escaped(".not a request"), "\\&.not a request")
        XCTAssertEqual(ManualCommand.escaped("'neither"), "\\&'neither")
    }

    func testEveryScriptHasEveryCommandAndOption() {
        let bash = CompletionCommand.script(for: .bash)
        let zsh = CompletionCommand.script(for: .zsh)
        let fish = CompletionCommand.script(for: .fish)
        for command in commandWords {
            XCTAssertTrue(bash.contains(command), command)
            XCTAssertTrue(zsh.contains(command), command)
            XCTAssertTrue(fish.contains(command), command)
        }
        for (command, options) in CommandOptionsTests.optionsOfCommands {
            for option in options {
                XCTAssertTrue(bash.contains("--\(option)"), "\(option) of \(command)")
                XCTAssertTrue(zsh.contains("--\(option)"), "\(option) of \(command)")
                XCTAssertTrue(
                    fish.contains("-l '\(option)'") || fish.contains("-l \(option)"), "\(option) of \(command)")
            }
        }
        XCTAssertTrue(zsh.hasPrefix("#compdef ipdata\n"))
        // ArgumentParser's own `help` is left out: ipdata's completes the command names.
        for script in [bash, zsh, fish] {
            XCTAssertFalse(script.contains("Show subcommand help information."))
        }
        XCTAssertEqual(bash.components(separatedBy: "_ipdata_help() {").count, 2)
        XCTAssertEqual(zsh.components(separatedBy: "_ipdata_help() {").count, 2)
    }

    /// Runs `lines` in bash after loading the bash script of the built binary, in a folder that
    /// holds files named `access.log` and `ips.txt`; `t WORD…` prints what completing the last
    /// word offers (the script asks the binary, `$IPDATA`, for field names).
    private func bash(_ lines: String) throws -> [Substring] {
        let binary = BuiltBinary.url
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("no ipdata binary at \(binary.path): build it first")
        }
        let script = try makeFile(CompletionCommand.script(for: .bash), named: "ipdata.bash")
        let folder = try makeTemporaryDirectory()
        for name in ["access.log", "ips.txt"] { try Data().write(to: folder.appendingPathComponent(name)) }
        let driver = """
            cd \(folder.path)
            source \(script.path)
            IPDATA=\(binary.path)
            t() {
                COMP_WORDS=("$IPDATA" "${@:2}"); COMP_CWORD=$((${#COMP_WORDS[@]}-1))
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _ipdata ipdata "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                echo "${COMPREPLY[*]}"
            }
            \(lines)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Each command completes its own options' values: `summarize --format` offers what
    /// summarize takes, `enrich --as` its shapes and styles, `--input` its shapes, `-f` the field names (a comma-separated list),
    /// and none of them file names.
    func testBashCompletesEachCommandsOwnValues() throws {
        let shown = try bash(
            """
            t ipdata summarize --format ''
            t ipdata lookup --format ''
            t ipdata bulk --format c
            t ipdata enrich --as ''
            t ipdata enrich --input ''
            t ipdata bulk -f cou
            t ipdata bulk -f ip,asn.n
            t ipdata lookup --fields threat.is_t
            t ipdata lookup --field country_c
            t ipdata bulk -f zzz
            t ipdata bulk --output ip
            t ipdata enrich acc
            """)
        XCTAssertEqual(
            shown,
            [
                "table json", "json jsonl csv tsv table markdown", "csv", "csv tsv jsonl lines ecs logfmt",
                "csv tsv jsonl lines zeek eve", "country_name country_code count",
                "ip,asn.name", "threat.is_tor threat.is_threat", "country_code", "", "ips.txt", "access.log", "",
            ])
    }

    /// Every field name offered is one that `--fields` and `--field` take.
    func testEveryFieldOfferedIsAField() throws {
        let words = CompletionCommand.fieldWords
        XCTAssertTrue(words.contains("country_code") && words.contains("asn.name"))
        try FieldSelection(parsing: [words.joined(separator: ",")]).refuseUnknownNames(kind: .address, shape: .list)
        for word in words { try FieldSelection.refuseUnknownField(word, kind: .address) }
    }

    /// The bash script, loaded into bash, completes commands, options, formats and shells as a
    /// user would see it; a key or a URL is completed with nothing.
    func testBashCompletesCommandsOptionsFormatsAndShells() throws {
        let shown = try bash(
            """
            t ipdata b
            t ipdata lookup --form
            t ipdata lookup --format j
            t ipdata grep --un
            t ipdata bulk --max
            t ipdata help g
            t ipdata completion f
            t ipdata bulk --api-key x
            """)
        XCTAssertEqual(
            shown, ["bulk", "--format", "json jsonl", "--unique", "--max-addresses", "grep", "fish", "", ""])
    }
}
#endif
