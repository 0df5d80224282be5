import CLILibC
import Foundation
import XCTest

extension XCTestCase {
    /// A new empty folder, mode 0700, removed when the test ends.
    func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ipdata-disk-cache-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// An API answer from the library's fixtures (Tests/IPDataTests/Fixtures/lookup).
    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtureFolder.appendingPathComponent(name))
    }

    static var fixtureFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../../Tests/IPDataTests/Fixtures/lookup"
        ).standardized
    }
}

/// The file's mode bits, or nil when it is not there.
func mode(of path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
}

/// A program of the system run from a test, to check a result with a reader independent of the
/// code under test (`python3`'s json module, `du`, `sqlite3`).
enum ToolRun {
    /// The program's path, or nil when it is not installed.
    static func path(of program: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map({ $0 + program }).first(
            where: FileManager.default.isExecutableFile(atPath:))
    }

    /// What the program wrote on standard output, when it exits 0; the test is skipped when the
    /// program is not installed, and fails when it exits otherwise.
    static func output(
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

/// The folder of the package's built programs: on Linux the test runner is an executable in it;
/// on macOS the `.xctest` bundle sits in it.
var builtProductsFolder: URL {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
}
