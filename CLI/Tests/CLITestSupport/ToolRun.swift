// Process exists on macOS and Linux only, where the CLI's tests run.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// A program of the system run from a test, to check a result with a reader independent of the
/// code under test (`python3`'s json module, `du`, `sqlite3`).
public enum ToolRun {
    /// The program's path, or nil when it is not installed.
    public static func path(of program: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + program }.first(
            where: FileManager.default.isExecutableFile(atPath:))
    }

    /// What the program wrote on standard output, when it exits 0; the test is skipped when the
    /// program is not installed, and fails when it exits otherwise.
    public static func output(
        _ program: String, _ arguments: [String], stdin: Data = Data(), file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> Data {
        guard let path = path(of: program) else { throw XCTSkip("needs \(program)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(
            process.terminationStatus, 0, "\(program): " + String(decoding: problem, as: UTF8.self), file: file,
            line: line)
        return result
    }
}
#endif
