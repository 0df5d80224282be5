// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// `ipdata init`'s prompt on a real terminal (a pseudo-terminal that util-linux `script` opens):
/// what is typed is not shown, and Ctrl-C at the prompt leaves the terminal as it was.
final class InitPromptTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    /// Runs `shellCommand` on a terminal; once the terminal shows `prompt`, types `keys`. Returns
    /// what the terminal showed.
    private func onTerminal(_ shellCommand: String, typing keys: [UInt8], after prompt: String) throws -> String {
        let script = try terminalScript()
        guard FileManager.default.isExecutableFile(atPath: BuiltBinary.url.path) else {
            return try BuiltBinary.run([], environment: [:]).stdout  // skips, or fails when required
        }
        let process = Process()
        process.executableURL = script
        process.arguments = ["--quiet", "--return", "--command", shellCommand, "/dev/null"]
        process.environment = childEnvironment(key: nil)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let shown = Locked(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            shown.withLock { $0.append(data) }
        }
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        defer { try? input.fileHandleForWriting.close() }
        // A bound for a broken run only: the prompt comes in milliseconds.
        let deadline = Date().addingTimeInterval(60)
        while !String(decoding: shown.withLock { $0 }, as: UTF8.self).contains(prompt) {
            guard Date() < deadline, process.isRunning else {
                process.terminate()
                XCTFail("no prompt: \(String(decoding: shown.withLock { $0 }, as: UTF8.self))")
                return ""
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        input.fileHandleForWriting.write(Data(keys))
        if exited.wait(timeout: .now() + 60) == .timedOut {
            process.terminate()
            XCTFail("the command still ran after Ctrl-C")
        }
        output.fileHandleForReading.readabilityHandler = nil
        let rest = (try? output.fileHandleForReading.readToEnd()) ?? nil
        return String(decoding: shown.withLock { $0 } + (rest ?? Data()), as: UTF8.self)
    }

    /// Whether `stty -a` output says echo is on: the word `echo`, not `-echo`.
    private func echoIsOn(_ sttyOutput: String) -> Bool {
        sttyOutput.split(whereSeparator: { $0 == " " || $0 == ";" || $0.isNewline }).contains("echo")
    }

    func testCtrlCAtThePromptTurnsEchoBackOn() throws {
        // The shell ignores Ctrl-C (as `ipdata` does, which handles it), so that it goes on to
        // report the exit status and the terminal's settings after `ipdata` ended.
        let command =
            "trap '' INT; '\(BuiltBinary.url.path)' init; echo \"status $?\"; stty -a"
        let shown = try onTerminal(command, typing: Array("half-typed-key".utf8) + [0x03], after: "API key (")
        XCTAssertTrue(shown.contains("API key (get a free one at https://ipdata.co/sign-up.html): "), shown)
        XCTAssertFalse(shown.contains("half-typed-key"), "what is typed at the prompt is not shown: \(shown)")
        XCTAssertTrue(shown.contains("ipdata: interrupted"), shown)
        XCTAssertTrue(shown.contains("status 130"), shown)
        let settings = String(shown[(shown.range(of: "status 130")?.upperBound ?? shown.startIndex)...])
        XCTAssertTrue(settings.contains("icanon"), "stty -a ran: \(settings)")
        XCTAssertTrue(echoIsOn(settings), "echo is on again: \(settings)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: configDirectory.appendingPathComponent("ipdata").path))
    }
}
#endif
