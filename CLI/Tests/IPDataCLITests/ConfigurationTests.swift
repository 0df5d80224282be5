// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// Where the key comes from, and how `init` stores it.
final class ConfigurationTests: XCTestCase {
    private func permissions(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testTheFileIsUnderXDGConfigHome() {
        let url = Configuration.fileURL(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/me"])
        XCTAssertEqual(url.path, "/x/config/ipdata/config")
    }

    func testWithoutXDGConfigHomeTheFileIsUnderHome() {
        XCTAssertEqual(Configuration.fileURL(environment: ["HOME": "/home/me"]).path, "/home/me/.config/ipdata/config")
        // The XDG specification says a relative or empty value is to be ignored.
        for xdg in ["", "relative/config"] {
            let url = Configuration.fileURL(environment: ["XDG_CONFIG_HOME": xdg, "HOME": "/home/me"])
            XCTAssertEqual(url.path, "/home/me/.config/ipdata/config")
        }
    }

    func testTheOptionComesFirst() throws {
        let key = try Configuration.resolve(option: " from-option ", environment: ["IPDATA_API_KEY": "from-env"]).value
        XCTAssertEqual(key, "from-option")
    }

    func testTheEnvironmentComesBeforeTheFile() throws {
        let folder = try makeTemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": folder.path]
        _ = try Configuration.store(apiKey: "from-file", environment: environment)
        XCTAssertEqual(try Configuration.resolve(option: nil, environment: environment).value, "from-file")
        var withVariable = environment
        withVariable["IPDATA_API_KEY"] = "from-env"
        XCTAssertEqual(try Configuration.resolve(option: nil, environment: withVariable).value, "from-env")
        withVariable["IPDATA_API_KEY"] = ""
        XCTAssertEqual(try Configuration.resolve(option: nil, environment: withVariable).value, "from-file")
    }

    func testNoKeyAnywhereSaysHowToSetOne() throws {
        let folder = try makeTemporaryDirectory()
        XCTAssertThrowsError(
            try Configuration.resolve(option: nil, environment: ["XDG_CONFIG_HOME": folder.path]).value
        ) {
            let error = $0 as? CommandError
            XCTAssertEqual(error?.status, .usage)
            XCTAssertEqual(
                error?.message,
                "no API key: run `ipdata init`, set IPDATA_API_KEY, or pass --api-key "
                    + "(get a free key at https://ipdata.co/sign-up.html)")
        }
    }

    func testAnEmptyOptionIsAnError() {
        XCTAssertThrowsError(try Configuration.resolve(option: "  ", environment: ["IPDATA_API_KEY": "k"]).value) {
            XCTAssertEqual(($0 as? CommandError)?.message, "--api-key is empty")
        }
    }

    func testStoringCreatesThePrivateFolderAndFile() throws {
        let folder = try makeTemporaryDirectory().appendingPathComponent("deeper/config")
        let url = try Configuration.store(apiKey: "the-key", environment: ["XDG_CONFIG_HOME": folder.path])
        XCTAssertEqual(url.path, folder.path + "/ipdata/config")
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "the-key\n")
        XCTAssertEqual(try permissions(url), 0o600)
        XCTAssertEqual(try permissions(url.deletingLastPathComponent()), 0o700)
    }

    func testStoringAgainReplacesTheKeyAndTightensTheMode() throws {
        let folder = try makeTemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": folder.path]
        let url = try Configuration.store(apiKey: "a-much-longer-first-key", environment: environment)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        _ = try Configuration.store(apiKey: "second", environment: environment)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "second\n")
        XCTAssertEqual(try permissions(url), 0o600)
    }

    // MARK: Where the key came from

    func testEachKeyNamesItsSource() throws {
        let folder = try makeTemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": folder.path]
        XCTAssertEqual(try Configuration.resolve(option: "k", environment: environment).source, .option)
        var withVariable = environment
        withVariable["IPDATA_API_KEY"] = "from-env"
        XCTAssertEqual(
            try Configuration.resolve(option: nil, environment: withVariable).source, .environment(overriding: nil))
        let url = try Configuration.store(apiKey: "from-file", environment: environment)
        XCTAssertEqual(
            try Configuration.resolve(option: nil, environment: withVariable).source, .environment(overriding: url))
        XCTAssertEqual(try Configuration.resolve(option: nil, environment: environment).source, .file(url))
    }

    func testOnlyAFileOthersMayReadGetsAWarning() throws {
        let folder = try makeTemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": folder.path]
        let url = try Configuration.store(apiKey: "from-file", environment: environment)
        XCTAssertNil(try Configuration.resolve(option: nil, environment: environment).warning)
        for mode in [0o640, 0o604, 0o660] {
            chmod(url.path, mode_t(mode))
            let warning = try Configuration.resolve(option: nil, environment: environment).warning
            XCTAssertEqual(
                warning,
                "warning: \(url.path) holds your API key and others can read it (mode 0"
                    + String(mode, radix: 8) + "): run chmod 600 \(url.path)")
        }
        chmod(url.path, 0o400)
        XCTAssertNil(try Configuration.resolve(option: nil, environment: environment).warning)
    }

    func testALinkIsFollowedToTheFileItNames() throws {
        let folder = try makeTemporaryDirectory()
        let plain = folder.appendingPathComponent("plain")
        XCTAssertEqual(try Configuration.linkTarget(of: plain), plain)
        let relative = folder.appendingPathComponent("relative")
        try FileManager.default.createSymbolicLink(atPath: relative.path, withDestinationPath: "sub/file")
        let absolute = folder.appendingPathComponent("absolute")
        try FileManager.default.createSymbolicLink(atPath: absolute.path, withDestinationPath: relative.path)
        XCTAssertEqual(try Configuration.linkTarget(of: absolute).path, folder.path + "/sub/file")
        let loop = folder.appendingPathComponent("loop")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop")
        XCTAssertThrowsError(try Configuration.linkTarget(of: loop)) {
            XCTAssertEqual(($0 as? CommandError)?.message, "cannot write \(loop.path): too many symbolic links")
        }
    }
}
#endif
