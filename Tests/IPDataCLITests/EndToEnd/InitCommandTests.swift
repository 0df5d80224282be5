// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// `ipdata init`, run as a user would.
final class InitCommandTests: CommandLineTestCase {
    private func permissions(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private var configFile: URL { configDirectory.appendingPathComponent("ipdata/config") }

    func testInitWritesTheKeyReadableOnlyByItsOwner() throws {
        let run = try ipdata(["init", key], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, "Saved the API key to \(configFile.path) (mode 0600).\n")
        XCTAssertEqual(try String(contentsOf: configFile, encoding: .utf8), key + "\n")
        XCTAssertEqual(try permissions(configFile), 0o600)
        XCTAssertEqual(try permissions(configFile.deletingLastPathComponent()), 0o700)
    }

    func testLookupsUseTheStoredKey() throws {
        XCTAssertEqual(try ipdata(["init", key], key: .absent).status, 0)
        let run = try ipdata(["1.1.1.1", "--field", "ip"] + base, key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "1.1.1.1\n")
    }

    func testWithoutAKeyArgumentInitReadsStandardInput() throws {
        let run = try ipdata(["init"], key: .absent, stdin: "  \(key)  \nignored\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try String(contentsOf: configFile, encoding: .utf8), key + "\n")
    }

    func testWithoutXDGConfigHomeTheKeyGoesUnderHome() throws {
        var environment = childEnvironment(key: nil)
        environment["XDG_CONFIG_HOME"] = nil
        let run = try BuiltBinary.run(["init", "some-key"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let file = home.appendingPathComponent(".config/ipdata/config")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "some-key\n")
        XCTAssertEqual(try permissions(file), 0o600)
    }

    func testAnEmptyKeyIsAUsageError() throws {
        let run = try ipdata(["init"], key: .absent, stdin: "\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderrLines, ["ipdata: the API key is empty"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: configFile.path))
    }

    func testInitTakesNoLookupOptions() throws {
        let run = try ipdata(["init", "--eu", "k"], key: .absent)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderrLines, ["ipdata: unknown option --eu (see ipdata init --help)"])
    }

    func testNoKeyAnywhereIsAConfigurationErrorThatSaysHowToSetOne() throws {
        let run = try ipdata(["8.8.8.8"] + base, key: .absent)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines, ["ipdata: no API key: run `ipdata init`, set IPDATA_API_KEY, or pass --api-key"])
    }

    func testTheOptionBeatsTheVariableWhichBeatsTheFile() throws {
        XCTAssertEqual(try ipdata(["init", "bad-file-key"], key: .absent).status, 0)
        XCTAssertEqual(try ipdata(["8.8.8.8"] + base, key: .absent).status, 3, "the file's key is used, and refused")
        XCTAssertEqual(try ipdata(["8.8.8.8"] + base, key: .paidPlan).status, 0, "the variable wins over the file")
        let run = try ipdata(["8.8.8.8", "--api-key", key] + base, key: .given("bad-variable-key"))
        XCTAssertEqual(run.status, 0, "the option wins over the variable: \(run.stderr)")
    }
}
#endif
