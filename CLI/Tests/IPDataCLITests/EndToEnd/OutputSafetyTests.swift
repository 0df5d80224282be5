// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import CLILibC
import XCTest

@testable import ipdata_cli

/// `--output` never destroys a file: not an input, not yesterday's results, not on Ctrl-C.
final class OutputSafetyTests: CommandLineTestCase {
    private func addresses(_ count: Int) -> String {
        (0..<count).map { "9.\($0 / 65_536).\($0 / 256 % 256).\($0 % 256)" }.joined(separator: "\n") + "\n"
    }

    private func contents(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    /// The files in `folder` other than `names`: temporary files left behind.
    private func others(in folder: URL, than names: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !names.contains($0) }
    }

    func testAnOutputThatIsAnInputIsRefusedAndLeftWhole() throws {
        let input = try makeFile("8.8.8.8\n1.1.1.1\n", named: "ips.txt")
        let folder = input.deletingLastPathComponent()
        let link = folder.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: input)
        let sub = folder.appendingPathComponent("sub", isDirectory: true)
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let cases: [(arguments: [String], stdin: URL?)] = [
            (["bulk", input.path, "--output", input.path], nil),
            (["bulk", link.path, "--output", input.path], nil),
            (["bulk", input.path, "--output", link.path], nil),
            (["bulk", input.path, "--output", sub.path + "/../ips.txt"], nil),
            (["bulk", "-", "--output", input.path], input),
            (["bulk", "--output", input.path], input),
        ]
        for (arguments, stdin) in cases {
            let run = try BuiltBinary.run(
                arguments + base, environment: childEnvironment(key: key), stdin: stdin)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("is the same file as"), run.stderr)
            XCTAssertTrue(run.stderr.contains("write the results to another file"), run.stderr)
            XCTAssertEqual(try contents(input), "8.8.8.8\n1.1.1.1\n", "\(arguments) left the input whole")
        }
        XCTAssertEqual(try others(in: folder, than: ["ips.txt", "link.txt", "sub"]), [], "no temporary file left")
    }

    func testARefusedKeyLeavesYesterdaysResultsAsTheyWere() throws {
        let input = try makeFile(addresses(300), named: "ips.txt")
        let folder = input.deletingLastPathComponent()
        let output = folder.appendingPathComponent("results.csv")
        try Data("ip,country_code\nyesterday,XX\n".utf8).write(to: output)
        for arguments in [
            ["bulk", input.path, "--format", "csv"], ["9.9.9.9", "9.9.9.8", "--format", "csv"],
            ["9.9.9.9", "--format", "csv"], ["9.9.9.9", "--field", "asn"],
        ] {
            let run = try ipdata(arguments + ["--output", output.path] + base, key: .given("not-a-key"))
            XCTAssertEqual(run.status, 3, run.stderr)
            XCTAssertEqual(try contents(output), "ip,country_code\nyesterday,XX\n", "\(arguments)")
            // A single lookup opens the output only once it has an answer.
            if arguments.count > 3 {
                XCTAssertTrue(run.stderr.contains("\(output.path) was left as it was"), run.stderr)
            }
        }
        XCTAssertEqual(
            try others(in: folder, than: ["ips.txt", "results.csv"]), [], "nothing was written: no partial file")
    }

    func testAQuotaExhaustedMidRunKeepsTheOldFileAndSaysWhereThePartialOutputIs() throws {
        let input = try makeFile(addresses(1000), named: "ips.txt")
        let folder = input.deletingLastPathComponent()
        let output = folder.appendingPathComponent("results.jsonl")
        try Data("yesterday\n".utf8).write(to: output)
        let quota = url + "/quota-after/3/\(UUID().uuidString)"
        let run = try ipdata(
            ["bulk", input.path, "--format", "jsonl", "-f", "ip", "--output", output.path, "--base-url", quota])
        XCTAssertEqual(run.status, 4, run.stderr)
        XCTAssertEqual(try contents(output), "yesterday\n")
        let partial = try XCTUnwrap(try others(in: folder, than: ["ips.txt", "results.jsonl"]).first)
        XCTAssertTrue(partial.hasPrefix(".results.jsonl.ipdata-"), partial)
        XCTAssertTrue(
            run.stderr.contains(
                "\(output.path) was left as it was; the partial output is in \(folder.path)/\(partial)"),
            run.stderr)
        let records = try contents(folder.appendingPathComponent(partial)).split(separator: "\n")
        XCTAssertEqual(records.count, 300, "the three answered requests, written")
    }

    func testACompletedRunReplacesTheFileAndKeepsItsPermissions() throws {
        let input = try makeFile("8.8.8.8\n1.1.1.1\n", named: "ips.txt")
        let folder = input.deletingLastPathComponent()
        let output = folder.appendingPathComponent("results.csv")
        try Data("old\n".utf8).write(to: output)
        XCTAssertEqual(chmod(output.path, 0o640), 0)
        let run = try ipdata(["bulk", input.path, "--format", "csv", "-f", "ip", "--output", output.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try contents(output), "ip,error\n8.8.8.8,\n1.1.1.1,\n")
        let mode = try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o640)
        XCTAssertEqual(try others(in: folder, than: ["ips.txt", "results.csv"]), [])

        // A run in which some addresses failed is complete too: its error records are results.
        let failing = try ipdata(["10.0.0.1", "8.8.8.8", "-f", "ip", "--output", output.path] + base)
        XCTAssertEqual(failing.status, 1, failing.stderr)
        XCTAssertEqual(try contents(output).split(separator: "\n").count, 2)
    }

    func testAnOutputThroughALinkReplacesTheFileTheLinkNames() throws {
        let target = try makeFile("old\n", named: "results.json")
        let link = target.deletingLastPathComponent().appendingPathComponent("latest.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let run = try ipdata(["8.8.8.8", "-f", "ip", "--output", link.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path)
        XCTAssertTrue(try contents(target).contains("8.8.8.8"))
    }

    func testCtrlCClosesTheJSONArraySoItStillParsesAndKeepsTheOldFile() throws {
        let input = try makeFile(addresses(2000), named: "ips.txt")
        let folder = input.deletingLastPathComponent()
        let output = folder.appendingPathComponent("results.json")
        try Data("old\n".utf8).write(to: output)
        // Each bulk answer takes 0.5 s, one at a time: the run is stopped after the first.
        let slow = url + "/delay/0.5"
        for (arguments, file) in [
            (["--output", output.path], output), ([], nil),
        ] as [([String], URL?)] {
            let stdout = folder.appendingPathComponent("stdout-\(UUID().uuidString)")
            let stderr = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
            try Data().write(to: stdout)
            try Data().write(to: stderr)
            let process = Process()
            process.executableURL = BuiltBinary.url
            process.arguments =
                ["bulk", input.path, "--format", "json", "-f", "ip", "--concurrency", "1", "--base-url", slow]
                + arguments
            process.environment = childEnvironment(key: key)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: stdout)
            process.standardError = try FileHandle(forWritingTo: stderr)
            try process.run()
            // Wait until the first records are out (in the partial file, or on stdout).
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let watched = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                    .filter { file == nil ? $0 == stdout.lastPathComponent : $0.hasPrefix(".results.json.ipdata-") }
                let written = watched.map { (try? Data(contentsOf: folder.appendingPathComponent($0)).count) ?? 0 }
                    .reduce(0, +)
                if written > 0 { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let messages = try contents(stderr)
            XCTAssertEqual(process.terminationStatus, 130, messages)
            XCTAssertTrue(messages.contains("ipdata: interrupted"), messages)
            let document: Data
            if let file {
                XCTAssertEqual(try contents(file), "old\n")
                let partial = try XCTUnwrap(
                    try FileManager.default.contentsOfDirectory(atPath: folder.path)
                        .first { $0.hasPrefix(".results.json.ipdata-") })
                XCTAssertTrue(messages.contains("the partial output is in \(folder.path)/\(partial)"), messages)
                document = try Data(contentsOf: folder.appendingPathComponent(partial))
            } else {
                document = try Data(contentsOf: stdout)
            }
            guard case .array(let records) = try JSONParser.parse(document) else {
                return XCTFail("not a JSON array: \(String(decoding: document, as: UTF8.self))")
            }
            XCTAssertGreaterThanOrEqual(records.count, 1, "the records written before the interruption")
            XCTAssertLessThan(records.count, 2000)
        }
    }
}
#endif
