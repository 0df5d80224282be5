import Foundation
import XCTest

/// Runs one test of this binary in a child process and reports the child's peak memory, so that a
/// case's peak is its own: memory a previous case allocated and freed stays in this process and
/// would hide the next case's growth.
///
/// The child is this test binary, run with the test's name as its filter and `case` (JSON) in
/// `IPDATA_PEAK_MEMORY_CASE`; it reads its own `VmHWM` and writes a `PeakMemoryProbe.Report` to
/// the file named in `IPDATA_PEAK_MEMORY_REPORT`. The parent watches the child's `VmRSS` and kills
/// it past `killAbove`, so that a case gone wrong costs a bounded amount of the machine.
/// Linux only: it reads `/proc`.
enum PeakMemoryProbe {
    /// What the child measured.
    struct Report: Codable {
        /// Resident bytes just before the case started.
        var baseline: Int
        /// The most resident bytes the child ever held (`VmHWM`).
        var peak: Int
        /// Seconds the case took.
        var seconds: Double
        /// What each request ended with: the error's description, or "answer".
        var outcomes: [String]
        /// Whether each request failed with `URLError(.dataLengthExceedsMaximum)`.
        var tooLarge: [Bool]
        /// Whether each request failed with `URLError(.timedOut)`.
        var timedOut: [Bool]
        /// Set by the parent when it killed the child past its limit.
        var killedAfter: Double?

        /// The growth over the baseline, in MiB.
        var grownMiB: Int { (peak - baseline) / 1_048_576 }
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    static let caseVariable = "IPDATA_PEAK_MEMORY_CASE"
    static let reportVariable = "IPDATA_PEAK_MEMORY_REPORT"

    /// The case this process runs as a child, or nil in the parent.
    static func childCase<Case: Decodable>(_ type: Case.Type) -> Case? {
        guard let text = ProcessInfo.processInfo.environment[caseVariable] else { return nil }
        return try? JSONDecoder().decode(Case.self, from: Data(text.utf8))
    }

    /// Measures `body` in the child and writes its report.
    static func measureInChild(_ body: () async throws -> (outcomes: [String], tooLarge: [Bool], timedOut: [Bool]))
        async throws
    {
        let baseline = try XCTUnwrap(status("VmRSS"))
        let start = Date()
        let ended = try await body()
        let report = Report(
            baseline: baseline, peak: try XCTUnwrap(status("VmHWM")), seconds: Date().timeIntervalSince(start),
            outcomes: ended.outcomes, tooLarge: ended.tooLarge, timedOut: ended.timedOut)
        let path = try XCTUnwrap(ProcessInfo.processInfo.environment[reportVariable])
        try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: path))
    }

    #if os(Linux)
    /// Runs `test` (`Module.Class/method`) with `testCase` in a child, killed past `killAbove`
    /// resident bytes or after `timeout` seconds.
    static func run<Case: Encodable>(
        _ test: String, _ testCase: Case, killAbove: Int, timeout: TimeInterval = 60
    ) throws -> Report {
        let reportPath = NSTemporaryDirectory() + "peak-memory-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let child = Process()
        child.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = [test]
        var environment = ProcessInfo.processInfo.environment
        environment[caseVariable] = String(decoding: try JSONEncoder().encode(testCase), as: UTF8.self)
        environment[reportVariable] = reportPath
        child.environment = environment
        let outputPath = reportPath + ".out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        defer { try? output.close() }
        child.standardOutput = output
        child.standardError = output
        let start = Date()
        try child.run()
        var peakSeen = 0
        var killedAfter: Double?
        while child.isRunning {
            let resident = status("VmRSS", of: child.processIdentifier) ?? 0
            peakSeen = max(peakSeen, status("VmHWM", of: child.processIdentifier) ?? resident)
            let elapsed = Date().timeIntervalSince(start)
            if resident > killAbove || elapsed > timeout {
                killedAfter = elapsed
                kill(child.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        child.waitUntilExit()
        if let killedAfter {
            return Report(
                baseline: 0, peak: peakSeen, seconds: killedAfter, outcomes: [], tooLarge: [], timedOut: [],
                killedAfter: killedAfter)
        }
        guard let data = FileManager.default.contents(atPath: reportPath),
            let report = try? JSONDecoder().decode(Report.self, from: data)
        else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failed(description: "the child \(test) wrote no report (status \(child.terminationStatus)):\n\(text)")
        }
        return report
    }
    #endif

    /// A field of `/proc/<pid>/status` in bytes (`VmRSS`, `VmHWM`), or nil.
    static func status(_ field: String, of pid: Int32? = nil) -> Int? {
        let path = "/proc/\(pid.map { String($0) } ?? "self")/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
