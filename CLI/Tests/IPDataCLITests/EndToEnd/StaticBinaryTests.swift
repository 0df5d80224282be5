// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

/// The `ipdata` that README's install steps build on Linux (`swift build -c release --package-path
/// CLI --product ipdata --static-swift-stdlib`) runs on a machine without a Swift toolchain: it links none of
/// the toolchain's libraries, and it looks an address up, over TLS, with the toolchain hidden.
///
/// `IPDATA_CLI_STATIC_BINARY` names that binary (`.ci/run` builds it and sets it). Unset, the
/// tests skip: building it takes a release build. Set, the binary must be there.
final class StaticBinaryTests: CommandLineTestCase {
    /// The binary that `IPDATA_CLI_STATIC_BINARY` names.
    private func staticBinary() throws -> URL {
        #if !os(Linux)
        throw XCTSkip("--static-swift-stdlib is for Linux: on macOS the Swift runtime is part of the system")
        #else
        guard let path = ProcessInfo.processInfo.environment["IPDATA_CLI_STATIC_BINARY"] else {
            throw XCTSkip(
                "set IPDATA_CLI_STATIC_BINARY to an ipdata built with `swift build -c release --package-path CLI "
                    + "--product ipdata --static-swift-stdlib` (.ci/run does)")
        }
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("IPDATA_CLI_STATIC_BINARY names \(path), which is no executable")
            throw XCTSkip("no binary")
        }
        return url
        #endif
    }

    /// What `ldd` says `binary` loads, one library a line.
    private func libraries(of binary: URL) throws -> [String] {
        let run = try BuiltBinary.run(
            [binary.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"), environment: ["LD_LIBRARY_PATH": ""])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdoutLines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The folder to hide: the toolchain's own (`/opt/swift` for `/opt/swift/usr/lib/swift/linux`,
    /// where the debug build finds libswiftCore.so), or `/usr/lib/swift` for a toolchain in `/usr`.
    private func toolchainFolder() throws -> String {
        let core = try XCTUnwrap(
            try libraries(of: BuiltBinary.url).first { $0.hasPrefix("libswiftCore.so => ") },
            "the debug build loads libswiftCore.so")
        let path = String(core.dropFirst("libswiftCore.so => ".count).prefix { $0 != " " })
        let prefix = String(try XCTUnwrap(path.range(of: "/lib/swift/").map { path[..<$0.lowerBound] }, path))
        guard prefix.hasSuffix("/usr"), prefix != "/usr" else { return prefix + "/lib/swift" }
        return String(prefix.dropLast("/usr".count))
    }

    func testTheStaticBinaryLoadsNoLibraryOfTheToolchain() throws {
        let binary = try staticBinary()
        let toolchain = try toolchainFolder()
        let loaded = try libraries(of: binary)
        XCTAssertFalse(loaded.isEmpty)
        for library in loaded {
            XCTAssertFalse(library.contains(toolchain + "/"), library)
            for name in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"] {
                XCTAssertFalse(library.hasPrefix(name), library)
            }
        }
    }

    /// The binary alone, copied as the install steps do (without the build folder beside it),
    /// runs where the toolchain's folder is covered by an empty file system, in a mount
    /// namespace of its own (`unshare`, as `TestServer/with-test-ca` does), with an empty
    /// `LD_LIBRARY_PATH`: the debug build cannot start there, the static one looks an address up.
    func testTheStaticBinaryLooksUpAnAddressWithTheToolchainOutOfReach() throws {
        let binary = home.appendingPathComponent("bin/ipdata")
        try FileManager.default.createDirectory(
            at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try staticBinary(), to: binary)
        let toolchain = try toolchainFolder()
        func withoutToolchain(_ executable: URL, _ arguments: [String]) throws -> BuiltBinary.Run {
            // Inside a user namespace when not root (which needs unprivileged user namespaces).
            let namespace =
                getuid() == 0
                ? ["--mount", "--propagation", "private"]
                : ["--user", "--map-root-user", "--mount", "--propagation", "private"]
            let script = #"mount -t tmpfs -o size=1m ipdata-test "$1" || exit 125; shift; exec "$@""#
            return try BuiltBinary.run(
                namespace + ["--", "/bin/sh", "-c", script, "sh", toolchain, executable.path] + arguments,
                executable: URL(fileURLWithPath: "/usr/bin/unshare"),
                environment: childEnvironment(key: key, extra: ["LD_LIBRARY_PATH": ""]))
        }
        let dynamic = try withoutToolchain(BuiltBinary.url, ["--version"])
        XCTAssertEqual(dynamic.status, 127, "the toolchain is out of reach: \(dynamic.stderr)")
        XCTAssertTrue(dynamic.stderr.contains("libswift"), dynamic.stderr)

        let run = try withoutToolchain(binary, ["8.8.8.8", "--field", "country_name"] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "United States\n")
        XCTAssertEqual(run.stderr, "")
    }
}
#endif
