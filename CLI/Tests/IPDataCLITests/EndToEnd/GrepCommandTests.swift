// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

/// `ipdata grep`, run as a user would: lines or addresses, filters, files and standard input. It
/// needs no key and no server.
final class GrepCommandTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    private let log = """
        Nov 30 10:00:01 sshd[1]: Accepted password for root from 203.0.113.9 port 22 ssh2
        Nov 30 10:00:02 app: version 1.2.3.4.5 built at 10:00:02
        10.0.0.1 - - [30/Nov/2026:10:00:03 +0000] "GET http://[2001:db8::1]:8080/ HTTP/1.1" 200 8.8.8.8
        Nov 30 10:00:04 kernel: fe80::1%eth0 link up, peer ::ffff:1.1.1.1
        8.8.8.8 again, and 010.1.1.1 (ambiguous)
        route 192.168.0.0/16 via 10.0.0.254
        """

    func testPrintsTheLinesThatHoldAnAddressAsTheyAre() throws {
        let run = try ipdata(["grep", makeFile(log).path], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = log.split(separator: "\n").map(String.init)
        XCTAssertEqual(run.stdoutLines, [lines[0], lines[2], lines[3], lines[4], lines[5]])
        XCTAssertEqual(run.stderr, "")
    }

    func testOnlyMatchingUniqueFamiliesPublicAndNetworks() throws {
        let file = try makeFile(log).path
        let cases: [([String], [String], UInt)] = [
            (
                ["-o"],
                [
                    "203.0.113.9", "10.0.0.1", "2001:db8::1", "8.8.8.8", "fe80::1", "1.1.1.1", "8.8.8.8", "192.168.0.0",
                    "10.0.0.254",
                ], #line
            ),
            (
                ["--unique"],
                [
                    "203.0.113.9", "10.0.0.1", "2001:db8::1", "8.8.8.8", "fe80::1", "1.1.1.1", "192.168.0.0",
                    "10.0.0.254",
                ],
                #line
            ),
            (["-u", "-6"], ["2001:db8::1", "fe80::1"], #line),
            (["-u", "-4", "--public"], ["8.8.8.8", "1.1.1.1"], #line),
            (["-u", "--public"], ["8.8.8.8", "1.1.1.1"], #line),
            (
                ["-o", "--cidrs", "-4"],
                [
                    "203.0.113.9", "10.0.0.1", "8.8.8.8", "1.1.1.1", "8.8.8.8", "192.168.0.0/16",
                    "10.0.0.254",
                ], #line
            ),
        ]
        for (options, expected, line) in cases {
            let run = try ipdata(["grep"] + options + [file], key: .absent)
            XCTAssertEqual(run.status, 0, run.stderr, line: line)
            XCTAssertEqual(run.stdoutLines, expected, options.joined(separator: " "), line: line)
        }
    }

    func testNoAddressExitsOneAndPrintsNothing() throws {
        let run = try ipdata(["grep"], key: .absent, stdin: "no address here\nversion 1.2.3.4.5\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "")
    }

    func testReadsFilesInOrderAndStandardInput() throws {
        let first = try makeFile("a 1.1.1.1\n", named: "first.log").path
        let second = try makeFile("b 2.2.2.2", named: "second.log").path
        let run = try ipdata(["grep", "-o", first, "-", second], key: .absent, stdin: "c 3.3.3.3\n")
        // Several inputs: each address after its input's name, as GNU grep prints them.
        XCTAssertEqual(run.stdoutLines, ["\(first):1.1.1.1", "(standard input):3.3.3.3", "\(second):2.2.2.2"])
    }

    func testUsageErrors() throws {
        let both = try ipdata(["grep", "-4", "-6"], key: .absent, stdin: "")
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderrLines, ["ipdata: use -4 or -6, not both (see ipdata grep --help)"])
        let missing = try ipdata(["grep", "/nonexistent/file.log"], key: .absent)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderrLines.count, 1)
        XCTAssertTrue(missing.stderr.contains("cannot read /nonexistent/file.log"), missing.stderr)
    }

    /// Lines that cross the 1 MiB reads are found whole, once.
    func testALargeInputIsReadWhole() throws {
        var text = ""
        var expected: [String] = []
        for index in 0..<60_000 {
            // About 50 bytes a line: 3 MB, three reads and more.
            if index % 7 == 0 {
                let address = "10.\(index / 65_536).\(index / 256 % 256).\(index % 256)"
                text += "line \(index) from \(address) with some padding text\n"
                expected.append(address)
            } else {
                text += "line \(index) has no address but 12:34:56 and 1.2.3\n"
            }
        }
        let run = try ipdata(["grep", "-o", makeFile(text).path], key: .absent)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdoutLines, expected)
    }

    func testBytesThatAreNotUTF8AndControlCharactersPassThroughAPipeUnchanged() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("raw.log")
        let line = Data("\u{1b}[31mred\u{1b}[0m 1.2.3.4 ".utf8) + Data([0xFF, 0xFE]) + Data("\n".utf8)
        try line.write(to: url)
        let run = try ipdata(["grep", url.path], key: .absent)
        XCTAssertEqual(run.stdoutBytes, line)
    }
}

/// `ipdata grep` beside GNU grep on the same files: they hold IPv4 addresses only, written so that
/// `grep -E` with an IPv4 pattern selects the lines `ipdata grep` does, and the bytes printed (lines,
/// `file:` prefixes, counts, colours) must be the same.
final class GrepAsGNUGrepTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    /// What GNU grep is asked for: the fixtures' addresses, and nothing else in them.
    private static let pattern = "[0-9]{1,3}(\\.[0-9]{1,3}){3}"

    /// The fixtures: a tree three levels deep of 50 regular files, about 5,000 lines of logs in
    /// all, with CRLF lines, a file without a final newline, an empty file, files without an
    /// address, and symbolic links to a file and to a folder (which `-r` does not follow).
    private struct Tree {
        let root: URL
        /// The regular files, in the order `-r` searches them: each folder's entries by the
        /// bytes of their names.
        let files: [String]
        let crlfFile: String
        let unterminatedFile: String
        let emptyFile: String
    }

    private func makeTree() throws -> Tree {
        let root = try makeTemporaryDirectory().appendingPathComponent("logs", isDirectory: true)
        var random = SeededGenerator(seed: 26)
        func address() -> String {
            "\(Int.random(in: 1...223, using: &random)).\(Int.random(in: 0...255, using: &random))."
                + "\(Int.random(in: 0...255, using: &random)).\(Int.random(in: 0...255, using: &random))"
        }
        // Names whose byte order is not a locale's: capitals first, `app.d` beside `app`.
        let fileNames = ["B.log", "a.log", "a10.log", "a2.log", "z-old.log"]
        var folders = [root]
        for first in ["Zone", "app", "app.d"] {
            let level1 = root.appendingPathComponent(first, isDirectory: true)
            folders.append(level1)
            for second in ["cur", "old"] { folders.append(level1.appendingPathComponent(second, isDirectory: true)) }
        }
        var paths: [String] = []
        for folder in folders {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in fileNames { paths.append(folder.appendingPathComponent(name).path) }
        }
        for (index, path) in paths.enumerated() {
            var lines: [String] = []
            let holdsAddresses = index % 7 != 3
            for _ in 0..<Int.random(in: 60...140, using: &random) {
                let (first, second) = holdsAddresses ? (address(), address()) : ("no", "none")
                switch Int.random(in: 0...9, using: &random) {
                case 0:
                    lines.append("Nov 30 10:00:01 sshd[812]: Accepted password for root from \(first) port 22 ssh2")
                case 1: lines.append("\(first) - - [30/Nov/2026:10:00:03 +0000] \"GET /a.html HTTP/1.1\" 200 512")
                case 2: lines.append("client=\(first), server=\(second)")
                case 3: lines.append("connect to [\(first)]:443 failed")
                case 4: lines.append("no address here, only 12:34:56 and port 8080")
                case 5: lines.append("")
                case 6: lines.append("\tindented \(first)")
                case 7: lines.append(first)
                case 8: lines.append("kernel: eth0 link up at 2026-11-30")
                default: lines.append("relay=\(first):25 and back to \(second).")
                }
            }
            let isCRLF = index == 8
            var text = lines.joined(separator: isCRLF ? "\r\n" : "\n") + (isCRLF ? "\r\n" : "\n")
            if index == 13 { text.removeLast() }
            if index == 21 { text = "" }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(
            atPath: root.appendingPathComponent("app/linked.log").path, withDestinationPath: paths[1])
        try fileManager.createSymbolicLink(
            atPath: root.appendingPathComponent("app/cur/up").path, withDestinationPath: "..")
        // The order of -r, worked out apart from ipdata: the paths compared folder by folder.
        let sorted = paths.sorted {
            let (left, right) = ($0.split(separator: "/"), $1.split(separator: "/"))
            return left.lexicographicallyPrecedes(right) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return Tree(
            root: root, files: sorted, crlfFile: paths[8], unterminatedFile: paths[13], emptyFile: paths[21])
    }

    /// GNU grep, run with `arguments` before its pattern and `operands` after it, in the C locale.
    private func gnuGrep(_ arguments: [String], _ operands: [String]) throws -> BuiltBinary.Run {
        guard let path = ToolRun.path(of: "grep") else { throw XCTSkip("needs GNU grep") }
        let grep = URL(fileURLWithPath: path)
        let version = try BuiltBinary.run(["--version"], executable: grep, environment: [:])
        guard version.stdout.hasPrefix("grep (GNU grep)") else { throw XCTSkip("needs GNU grep, not \(path)") }
        return try BuiltBinary.run(
            arguments + ["-E", "--", Self.pattern] + operands, executable: grep, environment: ["LC_ALL": "C"])
    }

    /// Asserts that `ipdata grep arguments operands` prints what GNU grep does, byte for byte, and
    /// exits as it does.
    private func assertAsGNUGrep(
        _ arguments: [String], _ operands: [String], extra: [String: String] = [:], line: UInt = #line
    ) throws {
        let gnu = try gnuGrep(arguments, operands)
        let run = try ipdata(["grep"] + arguments + operands, key: .absent, extra: extra, line: line)
        let label = arguments.joined(separator: " ")
        XCTAssertEqual(run.status, gnu.status, "\(label): \(run.stderr)", line: line)
        // Both printing nothing proves nothing, but for grep -ov.
        if !(arguments.contains("-o") && arguments.contains("-v")) {
            XCTAssertFalse(gnu.stdoutBytes.isEmpty && run.stdoutBytes.isEmpty && gnu.status == 0, label, line: line)
        }
        guard run.stdoutBytes != gnu.stdoutBytes else { return }
        let (ours, theirs) = (Self.lines(of: run.stdoutBytes), Self.lines(of: gnu.stdoutBytes))
        let first =
            zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(ours.count, theirs.count)
        func text(_ lines: [Data]) -> String {
            lines.dropFirst(first).first.map { String(reflecting: String(decoding: $0, as: UTF8.self)) } ?? "none"
        }
        XCTFail("\(label): line \(first + 1) differs: \(text(ours)) vs GNU grep's \(text(theirs))", line: line)
    }

    /// The lines of `output`, each without its `\n` (a `\r` before it kept).
    private static func lines(of output: Data) -> [Data] {
        var lines = output.split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    func testSeveralFilesAsGNUGrep() throws {
        let tree = try makeTree()
        for options in [[], ["-c"], ["-v"], ["-c", "-v"], ["-o"], ["-h"], ["-h", "-c"], ["-o", "-h"], ["-H", "-v"]] {
            try assertAsGNUGrep(options, tree.files)
        }
    }

    func testOneFileAsGNUGrep() throws {
        let tree = try makeTree()
        for file in [tree.files[0], tree.crlfFile, tree.unterminatedFile, tree.emptyFile] {
            for options in [[], ["-c"], ["-v"], ["-o"], ["-H"], ["-H", "-c"], ["-H", "-h"], ["-h", "-H", "-o"]] {
                try assertAsGNUGrep(options, [file])
            }
        }
    }

    /// GNU grep walks a folder in the order of its entries on disk: its output is put in the order
    /// of `Tree.files`, one file's lines kept together and in order, and must then be ipdata's.
    func testRecursiveAsGNUGrepInTheOrderOfNames() throws {
        let tree = try makeTree()
        let counted = try gnuGrep(["-r", "-c"], [tree.root.path])
        XCTAssertEqual(
            Set(counted.stdoutLines.map { String($0[..<$0.lastIndex(of: ":")!]) }), Set(tree.files),
            "GNU grep -r searches the 50 regular files and no link")
        for options in [["-r"], ["-r", "-c"], ["-r", "-v"], ["-r", "-o"], ["-r", "-c", "-v"]] {
            let gnu = try gnuGrep(options, [tree.root.path])
            var byFile: [String: Data] = [:]
            for line in Self.lines(of: gnu.stdoutBytes) {
                let name = tree.files.first { line.starts(with: Data(($0 + ":").utf8)) }
                XCTAssertNotNil(name, String(decoding: line, as: UTF8.self))
                byFile[name ?? "", default: Data()] += line + Data("\n".utf8)
            }
            let expected = tree.files.map { byFile[$0] ?? Data() }.reduce(Data(), +)
            let run = try ipdata(["grep"] + options + [tree.root.path], key: .absent)
            XCTAssertEqual(run.status, gnu.status, run.stderr)
            XCTAssertEqual(Self.lines(of: run.stdoutBytes).count, Self.lines(of: expected).count, "\(options)")
            XCTAssertTrue(
                run.stdoutBytes == expected, "ipdata grep \(options.joined(separator: " ")) is not GNU grep's")
        }
        // Without names, the lines are those of the files in that order.
        let plain = try ipdata(["grep", "-r", "-h", tree.root.path + "/"], key: .absent)
        XCTAssertEqual(plain.stdoutBytes, try gnuGrep(["-h"], tree.files).stdoutBytes)
        // A folder given with a slash names its files as without one, as GNU grep does.
        let slashed = try ipdata(["grep", "-r", "-c", tree.root.path + "/"], key: .absent)
        XCTAssertEqual(slashed.stdout, try ipdata(["grep", "-r", "-c", tree.root.path], key: .absent).stdout)
    }

    func testColoursAreGNUGrepsSequences() throws {
        let tree = try makeTree()
        let some = Array(tree.files.prefix(6))
        for options in [[], ["-o"], ["-c"], ["-v"], ["-h"]] {
            try assertAsGNUGrep(["--color=always"] + options, some)
            try assertAsGNUGrep(["--color=always"] + options, [tree.crlfFile])
        }
        // The sequences themselves, as GNU grep's defaults spell them.
        let file = try makeFile("from 192.0.2.1 to 198.51.100.2\r\n", named: "c.log").path
        let run = try ipdata(["grep", "--color=always", "-H", file], key: .absent)
        let (match, name, separator, end) = (
            "\u{1B}[01;31m\u{1B}[K", "\u{1B}[35m\u{1B}[K", "\u{1B}[36m\u{1B}[K", "\u{1B}[m\u{1B}[K"
        )
        XCTAssertEqual(
            run.stdout,
            "\(name)\(file)\(end)\(separator):\(end)from \(match)192.0.2.1\(end) to \(match)198.51.100.2\(end)\r\n")
    }

    func testNoColourInAPipeWithNeverOrWithNOCOLOR() throws {
        let tree = try makeTree()
        let some = Array(tree.files.prefix(4))
        let plain = try gnuGrep([], some).stdoutBytes
        let cases: [([String], [String: String])] = [
            ([], [:]), (["--color"], [:]), (["--color=auto"], [:]), (["--color=never"], [:]),
            (["--color", "--color=never"], ["TERM": "xterm"]), (["--color=auto"], ["NO_COLOR": "1"]),
        ]
        for (options, extra) in cases {
            let run = try ipdata(["grep"] + options + some, key: .absent, extra: extra)
            XCTAssertEqual(run.stdoutBytes, plain, "\(options) \(extra)")
        }
    }

    /// On a terminal: colour by default, none with NO_COLOR, TERM=dumb or --color=never; an explicit
    /// --color=always wins over NO_COLOR (no-color.org: an option given for one run overrides it).
    func testOnATerminalColourUnlessNOCOLOR() throws {
        let script = try terminalScript()
        let file = try makeFile("peer 192.0.2.7 up\n", named: "t.log").path
        func shown(_ options: [String], _ extra: [String: String]) throws -> String {
            let command = ([BuiltBinary.url.path, "grep"] + options + [file]).map { "'\($0)'" }.joined(separator: " ")
            let run = try BuiltBinary.run(
                ["--quiet", "--return", "--command", "exec " + command, "/dev/null"], executable: script,
                environment: childEnvironment(key: nil, extra: extra))
            XCTAssertEqual(run.status, 0, run.stdout)
            XCTAssertTrue(run.stdout.contains("192.0.2.7"), run.stdout)
            return run.stdout
        }
        let coloured = "peer \u{1B}[01;31m\u{1B}[K192.0.2.7\u{1B}[m\u{1B}[K up"
        XCTAssertTrue(try shown([], ["TERM": "xterm"]).contains(coloured))
        XCTAssertTrue(try shown(["--color"], ["TERM": "xterm"]).contains(coloured))
        XCTAssertTrue(try shown(["--color=always"], ["TERM": "xterm", "NO_COLOR": "1"]).contains(coloured))
        for (options, extra) in [
            ([], ["TERM": "xterm", "NO_COLOR": "1"]), (["--color"], ["TERM": "xterm", "NO_COLOR": "yes"]),
            ([], ["TERM": "dumb"]), ([], [:]), (["--color=never"], ["TERM": "xterm"]),
        ] {
            XCTAssertFalse(try shown(options, extra).contains("\u{1B}["), "\(options) \(extra)")
        }
    }

    func testCombinedShortFlagsReadAsApart() throws {
        let tree = try makeTree()
        let some = Array(tree.files.prefix(5))
        let pairs: [([String], [String])] = [
            (["-cv"], ["-c", "-v"]), (["-vc"], ["-c", "-v"]), (["-ou"], ["-o", "-u"]), (["-ch"], ["-c", "-h"]),
            (["-o4"], ["-o", "-4"]), (["-4o"], ["-o", "-4"]), (["-rcH"], ["-r", "-c", "-H"]),
        ]
        for (combined, apart) in pairs {
            let together = try ipdata(["grep"] + combined + some, key: .absent)
            let separate = try ipdata(["grep"] + apart + some, key: .absent)
            XCTAssertEqual(together.status, 0, "\(combined): \(together.stderr)")
            XCTAssertEqual(together.stdout, separate.stdout, "\(combined)")
            XCTAssertFalse(together.stdout.isEmpty, "\(combined)")
        }
        let recursive = try ipdata(["grep", "-rH", tree.root.path], key: .absent)
        XCTAssertEqual(recursive.stdout, try ipdata(["grep", "-r", tree.root.path], key: .absent).stdout)
        // The refusal of an attached field list stays where -f is an option.
        let fields = try ipdata(["bulk", "-fip,city", some[0]], key: .absent)
        XCTAssertEqual(fields.status, 2)
        XCTAssertTrue(fields.stderr.contains("option -f takes its value after a space"), fields.stderr)
    }

    /// 0 when a line was selected, 1 when none was, 2 when an input could not be read (after the
    /// others were searched), each as GNU grep.
    func testExitStatusesAsGNUGrep() throws {
        let tree = try makeTree()
        let allAddresses = try makeFile("1.2.3.4\nat 5.6.7.8\n", named: "all.log").path
        let none = try makeFile("nothing\n", named: "none.log").path
        let missing = tree.root.path + "/missing.log"
        try assertAsGNUGrep(["-v"], [allAddresses])
        try assertAsGNUGrep(["-c", "-v"], [allAddresses])
        try assertAsGNUGrep(["-c"], [none])
        try assertAsGNUGrep(["-o"], [none, tree.emptyFile])
        try assertAsGNUGrep(["-c"], [tree.files[0], missing, tree.files[1]])
        try assertAsGNUGrep([], [missing, none])
        // grep -ov prints nothing, and exits 0 when a line holds no address.
        try assertAsGNUGrep(["-o", "-v"], [tree.files[0]])
        let run = try ipdata(["grep", "-c", tree.files[0], missing, tree.files[1]], key: .absent)
        XCTAssertEqual(run.stderrLines, ["ipdata: cannot read \(missing): No such file or directory"])
    }
}

/// What `ipdata grep` prints is what `ipdata bulk` reads.
final class GrepIntoBulkTests: CommandLineTestCase {
    func testTheAddressesFoundAreLookedUpInOrder() throws {
        let log = "a 8.8.8.8:53 b\n[2001:4860::8888]:443 and 8.8.4.4.\nnone 1.2.3.4.5\n"
        let grep = try ipdata(["grep", "-o", "--public"], key: .absent, stdin: log)
        XCTAssertEqual(grep.stdoutLines, ["8.8.8.8", "2001:4860::8888", "8.8.4.4"])
        let bulk = try ipdata(
            ["bulk", "--format", "csv", "-f", "ip", "--no-progress", "-q"] + base, stdin: grep.stdout)
        XCTAssertEqual(bulk.status, 0, bulk.stderr)
        XCTAssertEqual(bulk.stdoutLines, ["ip,error", "8.8.8.8,", "2001:4860::8888,", "8.8.4.4,"])
    }
}
#endif
