// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// A test that runs the built `ipdata` against the local API server of `TestServer/`, whose
/// `env` file the test process must have sourced (see TestServer/README.md). Without it the test
/// is skipped, or fails when `IPDATA_INTEGRATION_REQUIRED=1` (as in CI).
///
/// Each test gets its own `HOME` and `XDG_CONFIG_HOME` in a temporary folder, so no key of the
/// person running the tests is ever read.
class CommandLineTestCase: XCTestCase {
    /// The server's environment: base URLs, keys, log paths.
    private(set) var server: [String: String] = [:]
    /// A fresh home folder for the child processes.
    private(set) var home: URL!

    /// The paid-plan key of the test server.
    var key: String { server["IPDATA_TEST_KEY"] ?? "test-key" }
    /// The URL of the server's normal mode.
    var url: String { server["IPDATA_TEST_URL_NORMAL"] ?? "" }
    /// `--base-url` and the normal mode's URL.
    var base: [String] { ["--base-url", url] }
    /// Where `ipdata init` writes the key in this test.
    var configDirectory: URL { home.appendingPathComponent("config", isDirectory: true) }

    /// Whether the tests need the server; those that never send a request run without it.
    class var needsServer: Bool { true }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let environment = ProcessInfo.processInfo.environment
        home = try makeTemporaryDirectory()
        guard environment["IPDATA_TEST_URL_NORMAL"] != nil || !Self.needsServer else {
            let reason = "no local API server: run TestServer/start and source its env (see TestServer/README.md)"
            if environment["IPDATA_INTEGRATION_REQUIRED"] == "1" { XCTFail(reason) }
            throw XCTSkip(reason)
        }
        server = environment.filter { $0.key.hasPrefix("IPDATA_TEST_") }
    }

    /// The environment of a child: a clean home, and `IPDATA_API_KEY` when `key` is given.
    ///
    /// Each run gets a cache of answers of its own, empty (`XDG_CACHE_HOME`), so that a test that
    /// runs `ipdata` twice counts the requests of both; a test of the cache names one folder for
    /// its runs in `extra` (`IPDATA_CACHE_DIR`).
    func childEnvironment(key: String?, extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_CONFIG_HOME": configDirectory.path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache-\(UUID().uuidString)", isDirectory: true).path,
        ]
        if let key { environment["IPDATA_API_KEY"] = key }
        return environment.merging(extra) { $1 }
    }

    /// What `IPDATA_API_KEY` holds for a run.
    enum KeyVariable {
        /// The test server's paid-plan key.
        case paidPlan
        /// No such variable.
        case absent
        case given(String)
    }

    /// Runs `ipdata arguments…` with `IPDATA_API_KEY` as `key` says and `stdin` as standard input.
    func ipdata(
        _ arguments: [String], key: KeyVariable = .paidPlan, stdin: String? = nil, extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> BuiltBinary.Run {
        let stdinURL = try stdin.map { try makeFile($0, named: "stdin") }
        let variable: String?
        switch key {
        case .paidPlan: variable = self.key
        case .absent: variable = nil
        case .given(let value): variable = value
        }
        return try BuiltBinary.run(
            arguments, environment: childEnvironment(key: variable, extra: extra), stdin: stdinURL, file: file,
            line: line)
    }

    // MARK: A terminal

    /// util-linux script(1), which runs a command on a pseudo-terminal and copies what it shows
    /// to its standard output; the test is skipped without it (macOS's BSD script(1) has none of
    /// the options the tests use).
    func terminalScript() throws -> URL {
        #if !os(Linux)
        throw XCTSkip("needs util-linux script(1), which macOS does not have")
        #else
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw XCTSkip("needs util-linux script(1) to run the command on a terminal")
        }
        return script
        #endif
    }

    // MARK: The server's access log

    /// One line of nginx's access log.
    struct AccessEntry {
        let mode: String
        let method: String
        let uri: String
        let status: Int
        /// When nginx finished the request, in seconds since 1970, and how long it took.
        var end: Double = 0
        var duration: Double = 0
        /// When the request arrived.
        var start: Double { end - duration }
    }

    /// The size of the access log now: entries written after it are this test's.
    func accessLogMark() -> UInt64 {
        let path = server["IPDATA_TEST_ACCESS_LOG"] ?? ""
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// The normal-mode entries written since `mark`, once there are at least `count` of them
    /// (nginx writes a line as a request ends, a moment after the client got its answer), or
    /// after 5 s.
    func accessEntries(since mark: UInt64, atLeast count: Int) throws -> [AccessEntry] {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: server["IPDATA_TEST_ACCESS_LOG"] ?? ""))
            try handle.seek(toOffset: mark)
            let data = try handle.readToEnd() ?? Data()
            try handle.close()
            let entries = data.split(separator: UInt8(ascii: "\n")).compactMap { line -> AccessEntry? in
                guard case .object(let entry)? = try? JSONParser.parse(Data(line)),
                    case .string(let mode)? = entry["mode"], case .string(let method)? = entry["method"],
                    case .string(let uri)? = entry["uri"], case .integer(let status)? = entry["status"]
                else { return nil }
                var access = AccessEntry(mode: mode, method: method, uri: uri, status: status)
                if case .number(let end)? = entry["msec"] { access.end = end }
                switch entry["request_time"] {
                case .number(let seconds)?: access.duration = seconds
                case .integer(let seconds)?: access.duration = Double(seconds)
                default: break
                }
                return access
            }.filter { $0.mode == "normal" }
            if entries.count >= count || Date() > deadline { return entries }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    // MARK: Reading output

    /// The JSON object of one line or document.
    func object(_ text: some StringProtocol, file: StaticString = #filePath, line: UInt = #line) throws -> Record {
        guard case .object(let object) = try JSONParser.parse(Data(text.utf8)) else {
            XCTFail("not a JSON object: \(text)", file: file, line: line)
            return [:]
        }
        return object
    }

    /// The objects of JSON-lines output.
    func objects(_ run: BuiltBinary.Run, file: StaticString = #filePath, line: UInt = #line) throws -> [Record] {
        try run.stdoutLines.map { try object($0, file: file, line: line) }
    }
}
#endif
