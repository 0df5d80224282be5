// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// The `ipdata` executable that `swift build` put next to this test bundle, run as a child
/// process with the arguments, environment and standard input a test gives it.
///
/// SwiftPM builds every product of the package into one folder (`.build/debug`, or the
/// `--scratch-path` given): on Linux the test runner, `IPDataPackageTests.xctest`, is an
/// executable in that folder, so `Bundle.main` is that folder; on macOS the `.xctest` bundle is
/// loaded by `xctest` (or by Xcode's runner, from `DerivedData/…/Build/Products/Debug`) and sits
/// in the products folder. `IPDATA_CLI_BINARY` overrides the path. Without a binary the
/// end-to-end tests skip with a message (Xcode builds `ipdata` only when its scheme is built),
/// and fail when `IPDATA_INTEGRATION_REQUIRED=1`.
enum BuiltBinary {
    /// What one run did.
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Standard output's bytes, for output that need not be UTF-8 (`stdout` replaces what is not).
        var stdoutBytes = Data()

        /// The lines of standard error, without empty ones.
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
        /// The lines of standard output, without empty ones.
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static var url: URL {
        if let path = ProcessInfo.processInfo.environment["IPDATA_CLI_BINARY"] { return URL(fileURLWithPath: path) }
        return productsFolder.appendingPathComponent("ipdata")
    }

    private static var productsFolder: URL {
        #if os(macOS)
        // The bundle that holds this code, whichever runner loaded it.
        let bundle = Bundle(for: BundleMarker.self)
        if bundle.bundlePath.hasSuffix(".xctest") { return bundle.bundleURL.deletingLastPathComponent() }
        #endif
        return Bundle.main.bundleURL
    }

    #if os(macOS)
    private final class BundleMarker {}
    #endif

    /// Runs the binary (or `executable`) and waits for it, at most `timeout` seconds (then it is
    /// killed and the test fails). Standard output and error go to files, so a large output
    /// cannot block it.
    static func run(
        _ arguments: [String], executable: URL = url, environment: [String: String], stdin: URL? = nil,
        timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            let reason =
                "no ipdata binary at \(executable.path): build it first (`swift build`, or the ipdata scheme in Xcode),"
                + " or set IPDATA_CLI_BINARY"
            if ProcessInfo.processInfo.environment["IPDATA_INTEGRATION_REQUIRED"] == "1" {
                XCTFail(reason, file: file, line: line)
            }
            throw XCTSkip(reason)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ipdata-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdoutURL = folder.appendingPathComponent("stdout")
        let stderrURL = folder.appendingPathComponent("stderr")
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            exited.wait()
            XCTFail("ipdata \(arguments.joined(separator: " ")) still ran after \(timeout) s", file: file, line: line)
        }
        let stdoutBytes = try Data(contentsOf: stdoutURL)
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutBytes, as: UTF8.self),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8), stdoutBytes: stdoutBytes)
    }
}
#endif
