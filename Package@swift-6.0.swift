// swift-tools-version: 6.0
// Swift 6 toolchains read this manifest: the same package in the Swift 6 language mode
// (complete concurrency checking). Keep its targets in step with Package.swift.
import PackageDescription

let package = Package(
    name: "IPData",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "IPData", targets: ["IPData"]),
        // A stand-in for the API, for the tests of apps that use IPData (like swift-log's InMemoryLogging).
        .library(name: "IPDataTesting", targets: ["IPDataTesting"]),
        .executable(name: "ipdata", targets: ["ipdata-cli"]),
    ],
    targets: [
        // PrivacyInfo.xcprivacy: the privacy manifest Apple expects of an SDK in an App Store app.
        .target(name: "IPData", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "IPDataTesting", dependencies: ["IPData"]),
        // The `ipdata` command-line tool: Foundation, IPData, and IPDataTesting for --sandbox.
        // Named ipdata-cli (module ipdata_cli, folder Sources/ipdata-cli) so that neither a module nor a
        // folder differs from IPData by case alone: macOS file systems ignore case.
        .executableTarget(name: "ipdata-cli", dependencies: ["IPData", "IPDataTesting", "IPDataLibC"]),
        // The C library (Glibc, Musl or Darwin) for the targets that call it, the CLI and tests:
        // `import IPDataLibC`. No library product depends on it, so it never reaches an app.
        .target(name: "IPDataLibC"),
        // The DocC articles' test samples, run (scripts/check-samples.sh type-checks every sample of
        // README.md and the articles as printed, against the built modules).
        .testTarget(name: "DocumentationSampleTests", dependencies: ["IPData", "IPDataTesting"]),
        .testTarget(
            name: "IPDataTests", dependencies: ["IPData", "IPDataLibC", "IPDataTestSupport"],
            resources: [.copy("Fixtures")]),
        // Against the local HTTPS + HTTP/2 stand-in in TestServer/ (started by .ci/run).
        .testTarget(name: "IPDataIntegrationTests", dependencies: ["IPData", "IPDataTestSupport"]),
        // The CLI: its parser and writers, and the built binary run against the local server.
        // The CLI runs on macOS and Linux; on other platforms its test target builds empty.
        .testTarget(
            name: "IPDataCLITests",
            dependencies: [
                .target(name: "ipdata-cli", condition: .when(platforms: [.macOS, .linux])), "IPData", "IPDataTesting",
                "IPDataLibC", "IPDataTestSupport",
            ]),
        // The kit's own tests, written the way an app developer would write theirs.
        .testTarget(name: "IPDataTestingTests", dependencies: ["IPDataTesting", "IPDataTestSupport"]),
        // What the test targets share: XCTest shims for older toolchains.
        .target(name: "IPDataTestSupport", path: "Tests/IPDataTestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
