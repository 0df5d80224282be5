// swift-tools-version: 6.0
// The `ipdata` command-line tool's own package: a program, not part of the SDK an app links, so
// that an app depending on IPData resolves nothing of it. It builds against IPData's public API
// alone (a path dependency, as a third party's package would), on macOS and Linux.
//
// Build and test: swift build --package-path CLI --build-tests; swift test --package-path CLI.
// Linux needs SQLite's headers (Debian and Ubuntu: apt-get install libsqlite3-dev); macOS has
// SQLite in its SDK. The binary links the system's SQLite dynamically (libsqlite3-0 on Linux).
// Swift 6 language mode only (tools version 6.0): a program is compiled by no one else, so it
// keeps no Swift 5 mode.
import PackageDescription

let package = Package(
    name: "IPDataCLI",
    // The CLI runs on macOS and Linux (Linux needs no platform entry).
    platforms: [.macOS(.v12)],
    products: [
        .executable(name: "ipdata", targets: ["ipdata-cli"])
    ],
    dependencies: [
        .package(name: "IPData", path: ".."),
        // SHA-256 (CryptoKit on Apple platforms, BoringSSL elsewhere). 3.x for Swift 6.0, 4.x for 6.1+.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        // Options, subcommands, help and shell completion. 1.6 for completion closures that see
        // the word being completed (the comma lists of --fields).
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.6.0"),
    ],
    targets: [
        // The `ipdata` command-line tool: IPData, IPDataTesting for --sandbox, and its disk cache.
        // Named ipdata-cli (module ipdata_cli) so that no module differs from IPData by case
        // alone: macOS file systems ignore case.
        .executableTarget(
            name: "ipdata-cli",
            dependencies: [
                "DiskCache", "CLILibC", "CFreedMemory",
                .product(name: "IPData", package: "IPData"),
                .product(name: "IPDataTesting", package: "IPData"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The C library (Glibc, Musl or Darwin) for this package's files that call it: `import CLILibC`.
        .target(name: "CLILibC"),
        // The allocator's settings for a run (glibc's `mallopt`, which the Glibc module lacks).
        .target(name: "CFreedMemory"),
        // The system's SQLite on Linux (libsqlite3-dev). Apple platforms import the SDK's SQLite3
        // module instead, so this target is a dependency on Linux only.
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"])]),
        // The CLI's disk cache of answers: a `LookupCacheStore` on one SQLite database per user.
        .target(
            name: "DiskCache",
            dependencies: [
                .product(name: "IPData", package: "IPData"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CLILibC",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]),
        // The store alone: 10,000 answers of real size stored and read back (release build).
        .executableTarget(
            name: "cache-benchmark",
            dependencies: ["DiskCache", .product(name: "IPData", package: "IPData")]),
        // One of several processes sharing one cache, which DiskCacheTests starts.
        .executableTarget(
            name: "cache-race",
            dependencies: ["DiskCache", .product(name: "IPData", package: "IPData")]),
        .testTarget(
            name: "DiskCacheTests",
            dependencies: [
                "DiskCache", "cache-race", "CLILibC", "CLITestSupport", .product(name: "IPData", package: "IPData"),
            ]),
        // What the two test targets share: programs of the system run to check their results.
        .target(name: "CLITestSupport", path: "Tests/CLITestSupport"),
        // The CLI: its parser and writers, and the built binary run against the local server.
        .testTarget(
            name: "IPDataCLITests",
            dependencies: [
                "CLITestSupport",
                "ipdata-cli", "CLILibC", "DiskCache",
                .product(name: "IPData", package: "IPData"),
                .product(name: "IPDataTesting", package: "IPData"),
            ]),
    ]
)
