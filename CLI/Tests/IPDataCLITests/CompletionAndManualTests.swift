// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The completion scripts and the manual page are made from the parser's own tables: every
/// command and option is in them.
final class CompletionAndManualTests: XCTestCase {
    private var everyOption: [OptionSpec] {
        IPDataCommand.Command.allCases.flatMap(\.options)
    }

    private var commandWords: [String] {
        IPDataCommand.Command.allCases.filter { $0 != .lookup }.map(\.rawValue)
    }

    func testTheManualPageHasEveryCommandAndOption() {
        let page = ManualCommand.page
        for command in commandWords {
            XCTAssertTrue(page.contains("\n.SS \(command)\n"), command)
        }
        for option in everyOption {
            let long = "\\-\\-" + ManualCommand.escaped(option.name)
            XCTAssertTrue(page.contains(long), option.name)
            if let short = option.short { XCTAssertTrue(page.contains("\\-\(short), " + long), option.name) }
        }
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
            XCTAssertTrue(fish.contains("-a \(command) "), command)
        }
        for option in everyOption {
            XCTAssertTrue(bash.contains("--\(option.name)"), option.name)
            XCTAssertTrue(fish.contains("-l \(option.name)"), option.name)
        }
        XCTAssertTrue(zsh.hasPrefix("#compdef ipdata\n"))
        XCTAssertTrue(zsh.contains(bash.split(separator: "\n").dropFirst().joined(separator: "\n")))
    }

    /// Runs `lines` in bash after loading the bash script, in a folder that holds files named
    /// `access.log` and `ips.txt`; `t WORD…` prints what completing the last word offers, and
    /// `compopt` calls are printed as `compopt …`.
    private func bash(_ lines: String) throws -> [Substring] {
        let script = try makeFile(CompletionCommand.script(for: .bash), named: "ipdata.bash")
        let folder = try makeTemporaryDirectory()
        for name in ["access.log", "ips.txt"] { try Data().write(to: folder.appendingPathComponent(name)) }
        let driver = """
            cd \(folder.path)
            source \(script.path)
            compopt() { echo "compopt $*"; }
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _ipdata; echo "${COMPREPLY[*]}"; }
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
    /// summarize takes, `enrich --as` its shapes, `-f` the field names (a comma-separated list),
    /// and none of them file names, even when nothing matches.
    func testBashCompletesEachCommandsOwnValues() throws {
        let shown = try bash(
            """
            t ipdata summarize --format ''
            t ipdata --format ''
            t ipdata bulk --format c
            t ipdata enrich --as ''
            t ipdata bulk -f cou
            t ipdata bulk -f ip,asn.n
            t ipdata --fields threat.is_t
            t ipdata --field country_c
            t ipdata bulk -f zzz
            t ipdata bulk --output ip
            t ipdata enrich acc
            complete -p ipdata
            """)
        XCTAssertEqual(
            shown,
            [
                "compopt +o default", "table json",
                "compopt +o default", "json jsonl csv table",
                "compopt +o default", "csv",
                "compopt +o default", "csv tsv jsonl lines",
                "compopt +o default -o nospace", "country_name country_code count",
                "compopt +o default -o nospace", "ip,asn.name",
                "compopt +o default -o nospace", "threat.is_tor threat.is_threat",
                "compopt +o default", "country_code",
                "compopt +o default -o nospace", "",
                "ips.txt",
                "access.log",
                "complete -o default -F _ipdata ipdata", "",
            ])
    }

    /// Every field name offered is one that `--fields` and `--field` take.
    func testEveryFieldOfferedIsAField() throws {
        let words = CompletionCommand.fieldWords
        XCTAssertTrue(words.contains("country_code") && words.contains("asn.name"))
        try FieldSelection(parsing: [words.joined(separator: ",")]).refuseUnknownNames(kind: .address, shape: .list)
        for word in words { try FieldSelection.refuseUnknownField(word, kind: .address) }
    }

    /// The bash script, loaded into bash, completes as a user would see it.
    func testBashCompletesCommandsOptionsFormatsAndShells() throws {
        let script = try makeFile(CompletionCommand.script(for: .bash), named: "ipdata.bash")
        let driver = """
            source \(script.path)
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _ipdata; echo "${COMPREPLY[*]}"; }
            t ipdata b
            t ipdata --form
            t ipdata --format j
            t ipdata grep --un
            t ipdata bulk --max
            t ipdata help g
            t ipdata completion f
            t ipdata --api-key x
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
        XCTAssertEqual(
            String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false),
            ["bulk", "--format", "json jsonl", "--unique", "--max-addresses", "grep", "fish", "", ""])
    }
}
#endif
