// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata init`, run as a user would.
final class InitCommandTests: CommandLineTestCase {
    private func permissions(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private var configFile: URL { configDirectory.appendingPathComponent("ipdata/config") }

    /// Writes `key` to the configuration file as `ipdata init` would, without checking it.
    private func storeUnchecked(_ key: String) throws {
        _ = try Configuration.store(apiKey: key, environment: ["XDG_CONFIG_HOME": configDirectory.path])
    }

    func testInitWritesTheKeyReadableOnlyByItsOwner() throws {
        let run = try ipdata(["init", key] + base, key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, "Checked the API key and saved it to \(configFile.path) (mode 0600).\n")
        XCTAssertEqual(try String(contentsOf: configFile, encoding: .utf8), key + "\n")
        XCTAssertEqual(try permissions(configFile), 0o600)
        XCTAssertEqual(try permissions(configFile.deletingLastPathComponent()), 0o700)
    }

    func testLookupsUseTheStoredKey() throws {
        XCTAssertEqual(try ipdata(["init", key] + base, key: .absent).status, 0)
        let run = try ipdata(["1.1.1.1", "--field", "ip"] + base, key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "1.1.1.1\n")
    }

    func testWithoutAKeyArgumentInitReadsStandardInput() throws {
        let run = try ipdata(["init"] + base, key: .absent, stdin: "  \(key)  \nignored\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try String(contentsOf: configFile, encoding: .utf8), key + "\n")
    }

    func testWithoutXDGConfigHomeTheKeyGoesUnderHome() throws {
        var environment = childEnvironment(key: nil)
        environment["XDG_CONFIG_HOME"] = nil
        let run = try BuiltBinary.run(["init", key] + base, environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let file = home.appendingPathComponent(".config/ipdata/config")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), key + "\n")
        XCTAssertEqual(try permissions(file), 0o600)
    }

    func testAnEmptyKeyIsAUsageErrorThatSaysWhereToGetAKey() throws {
        let run = try ipdata(["init"] + base, key: .absent, stdin: "\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(
            run.stderrLines, ["ipdata: the API key is empty: get a free key at https://ipdata.co/sign-up.html"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: configFile.path))
    }

    func testInitTakesNoLookupOptions() throws {
        let run = try ipdata(["init", "--format", "json", "k"], key: .absent)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderrLines, ["ipdata: unknown option --format (see ipdata init --help)"])
    }

    func testNoKeyAnywhereIsAConfigurationErrorThatSaysHowToSetOne() throws {
        let run = try ipdata(["8.8.8.8"] + base, key: .absent)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: no API key: run `ipdata init`, set IPDATA_API_KEY, or pass --api-key "
                    + "(get a free key at https://ipdata.co/sign-up.html)"
            ])
    }

    func testTheOptionBeatsTheVariableWhichBeatsTheFile() throws {
        try storeUnchecked("bad-file-key")
        XCTAssertEqual(try ipdata(["8.8.8.8"] + base, key: .absent).status, 3, "the file's key is used, and refused")
        XCTAssertEqual(try ipdata(["8.8.8.8"] + base, key: .paidPlan).status, 0, "the variable wins over the file")
        let run = try ipdata(["8.8.8.8", "--api-key", key] + base, key: .given("bad-variable-key"))
        XCTAssertEqual(run.status, 0, "the option wins over the variable: \(run.stderr)")
    }

    // MARK: Checking the key

    func testInitChecksTheKeyWithOneLookupOfTheOwnAddress() throws {
        let mark = accessLogMark()
        XCTAssertEqual(try ipdata(["init", key] + base, key: .absent).status, 0)
        let entries = try accessEntries(since: mark, atLeast: 1)
        XCTAssertEqual(entries.map { "\($0.method) \($0.uri) \($0.status)" }, ["GET / 200"])
    }

    func testARefusedKeyIsNotStoredAndExitsThree() throws {
        let run = try ipdata(["init", "not-a-key"] + base, key: .absent)
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: the API refused this key (You have not provided a valid API Key.), so it was not saved: "
                    + "copy it again from your account, or get a free key at https://ipdata.co/sign-up.html"
            ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: configFile.path))
    }

    func testARefusedKeyLeavesTheStoredOneAsItWas() throws {
        try storeUnchecked(key)
        XCTAssertEqual(try ipdata(["init", "not-a-key"] + base, key: .absent).status, 3)
        XCTAssertEqual(try String(contentsOf: configFile, encoding: .utf8), key + "\n")
    }

    /// No network (on a plane): the key is stored, with a warning that it was not checked.
    func testAKeyThatCannotBeCheckedIsStoredWithAWarning() throws {
        let unreachable = try XCTUnwrap(server["IPDATA_TEST_URL_RESET_ON_ACCEPT"])
        let run = try ipdata(["init", key, "--base-url", unreachable], key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "Saved the API key to \(configFile.path) (mode 0600), unchecked.\n")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ipdata: warning: could not check the key (Network error: "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("); saved it all the same\n"), run.stderr)
        XCTAssertEqual(try String(contentsOf: configFile, encoding: .utf8), key + "\n")
        XCTAssertFalse(run.stderr.contains(key), run.stderr)
    }

    /// A 403 means the API knows the key: it is stored, and the reason for the 403 is shown.
    func testAKeyOverItsQuotaIsStored() throws {
        let quotaKey = try XCTUnwrap(server["IPDATA_TEST_QUOTA_KEY"])
        let run = try ipdata(["init", quotaKey] + base, key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: the API knows the key but refused the lookup: Forbidden: You have exceeded your free quota. "
                    + "Upgrade to a paid plan to re-activate your account."
            ])
        XCTAssertEqual(try String(contentsOf: configFile, encoding: .utf8), quotaKey + "\n")
    }

    func testInitFollowsTheBaseURLRulesOfTheLookups() throws {
        let cleartext = try ipdata(["init", key, "--base-url", "http://api.example.com"], key: .absent)
        XCTAssertEqual(cleartext.status, 2)
        XCTAssertEqual(
            cleartext.stderrLines,
            [
                "ipdata: --base-url with plain http would send the API key in clear text: use https "
                    + "(http is for this machine only: localhost, 127.0.0.1, [::1]) (see ipdata init --help)"
            ])
        let both = try ipdata(["init", key, "--eu", "--base-url", url], key: .absent)
        XCTAssertEqual(both.stderrLines, ["ipdata: use --eu or --base-url, not both (see ipdata init --help)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: configFile.path))
        let loopback = try XCTUnwrap(server["IPDATA_TEST_URL_BACKEND"])
        let run = try ipdata(["init", key, "--base-url", loopback], key: .absent)
        XCTAssertEqual(run.status, 0, "plain http to this machine: \(run.stderr)")
    }

    func testInitHelpSaysWhatHappensWithoutNetworkAndWhereToGetAKey() throws {
        let help = try ipdata(["init", "--help"], key: .absent).stdout.split(separator: "\n").joined(separator: " ")
        XCTAssertTrue(help.contains("A key the API refuses is not stored (exit status 3)."), help)
        XCTAssertTrue(help.contains("the key is stored all the same, with a warning that it was not checked"), help)
        XCTAssertTrue(help.contains("Get a free one at https://ipdata.co/sign-up.html."), help)
    }

    func testHelpSaysThatAKeyOnTheCommandLineShowsInPs() throws {
        for arguments in [["--help"], ["bulk", "--help"]] {
            // The option and its help, which ArgumentParser wraps over several lines.
            let lines = try ipdata(arguments, key: .absent).stdoutLines
            let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  --api-key <KEY>") })
            let option = lines[start...].prefix { $0 == lines[start] || $0.hasPrefix("      ") }
                .flatMap { $0.split(separator: " ") }.joined(separator: " ")
            XCTAssertTrue(
                option.hasSuffix(
                    "other users of this machine can see it in `ps`: prefer ipdata init or IPDATA_API_KEY"),
                option)
        }
    }

    // MARK: A symbolic link

    /// Dotfile managers (stow, home-manager, chezmoi) put a link where the file goes.
    func testInitWritesThroughASymlinkedConfigFileAndLookupsReadIt() throws {
        let dotfiles = home.appendingPathComponent("dotfiles", isDirectory: true)
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: configFile.path, withDestinationPath: "../../dotfiles/ipdata")
        let target = dotfiles.appendingPathComponent("ipdata")
        try Data("old-key\n".utf8).write(to: target)

        let run = try ipdata(["init", key] + base, key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: configFile.path), "../../dotfiles/ipdata",
            "the link stays")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), key + "\n")
        XCTAssertEqual(try permissions(target), 0o600)
        let lookup = try ipdata(["1.1.1.1", "--field", "ip"] + base, key: .absent)
        XCTAssertEqual(lookup.status, 0, lookup.stderr)
        XCTAssertEqual(lookup.stderr, "", "the link's own mode (0777) is no warning")
    }

    func testInitCreatesTheFileThatADanglingLinkNames() throws {
        try FileManager.default.createDirectory(
            at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let target = home.appendingPathComponent("dotfiles/ipdata/config")
        try FileManager.default.createSymbolicLink(atPath: configFile.path, withDestinationPath: target.path)
        XCTAssertEqual(try ipdata(["init", key] + base, key: .absent).status, 0)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), key + "\n")
    }

    // MARK: A file others can read

    func testAConfigFileOthersCanReadGetsAWarning() throws {
        try storeUnchecked(key)
        chmod(configFile.path, 0o644)
        let run = try ipdata(["1.1.1.1", "--field", "ip"] + base, key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "1.1.1.1\n")
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: warning: \(configFile.path) holds your API key and others can read it (mode 0644): "
                    + "run chmod 600 \(configFile.path)"
            ])
        chmod(configFile.path, 0o600)
        XCTAssertEqual(try ipdata(["1.1.1.1", "--field", "ip"] + base, key: .absent).stderr, "")
    }

    // MARK: Where a refused key came from

    func testARefusedKeyFromTheVariableSaysItOverridesTheFile() throws {
        try storeUnchecked(key)
        let run = try ipdata(["8.8.8.8"] + base, key: .given("stale-variable-key"))
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(
            run.stderrLines,
            [
                "ipdata: Unauthorized: You have not provided a valid API Key. (the key came from IPDATA_API_KEY, "
                    + "which overrides the config file \(configFile.path): fix or unset IPDATA_API_KEY)"
            ])
    }

    func testARefusedKeySaysWhichSourceItCameFrom() throws {
        let prefix = "ipdata: Unauthorized: You have not provided a valid API Key. (the key came from "
        let fromVariable = try ipdata(["8.8.8.8"] + base, key: .given("stale-variable-key"))
        XCTAssertEqual(
            fromVariable.stderrLines, [prefix + "IPDATA_API_KEY: check it, or unset it and run `ipdata init`)"])
        let fromOption = try ipdata(["8.8.8.8", "--api-key", "stale-option-key"] + base, key: .absent)
        XCTAssertEqual(fromOption.stderrLines, [prefix + "--api-key: check it)"])
        try storeUnchecked("stale-file-key")
        let fromFile = try ipdata(["bulk"] + base, key: .absent, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(fromFile.status, 3)
        XCTAssertTrue(
            fromFile.stderrLines.contains(
                prefix + "the config file \(configFile.path): run `ipdata init` with a valid key)"),
            fromFile.stderr)
        for run in [fromVariable, fromOption, fromFile] { XCTAssertFalse(run.stderr.contains("stale-"), run.stderr) }
    }
}
#endif
