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
        let key = try Configuration.apiKey(option: " from-option ", environment: ["IPDATA_API_KEY": "from-env"])
        XCTAssertEqual(key, "from-option")
    }

    func testTheEnvironmentComesBeforeTheFile() throws {
        let folder = try makeTemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": folder.path]
        _ = try Configuration.store(apiKey: "from-file", environment: environment)
        XCTAssertEqual(try Configuration.apiKey(option: nil, environment: environment), "from-file")
        var withVariable = environment
        withVariable["IPDATA_API_KEY"] = "from-env"
        XCTAssertEqual(try Configuration.apiKey(option: nil, environment: withVariable), "from-env")
        withVariable["IPDATA_API_KEY"] = ""
        XCTAssertEqual(try Configuration.apiKey(option: nil, environment: withVariable), "from-file")
    }

    func testNoKeyAnywhereSaysHowToSetOne() throws {
        let folder = try makeTemporaryDirectory()
        XCTAssertThrowsError(try Configuration.apiKey(option: nil, environment: ["XDG_CONFIG_HOME": folder.path])) {
            let error = $0 as? CommandError
            XCTAssertEqual(error?.status, .usage)
            XCTAssertEqual(error?.message, "no API key: run `ipdata init`, set IPDATA_API_KEY, or pass --api-key")
        }
    }

    func testAnEmptyOptionIsAnError() {
        XCTAssertThrowsError(try Configuration.apiKey(option: "  ", environment: ["IPDATA_API_KEY": "k"])) {
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
}
#endif
