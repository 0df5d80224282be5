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
    ],
    targets: [
        // PrivacyInfo.xcprivacy: the privacy manifest Apple expects of an SDK in an App Store app.
        .target(name: "IPData", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "IPDataTesting", dependencies: ["IPData"]),
        // The C library (Glibc, Musl or Darwin) for the targets that call it, the tests:
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
        // The kit's own tests, written the way an app developer would write theirs.
        .testTarget(name: "IPDataTestingTests", dependencies: ["IPDataTesting", "IPDataTestSupport"]),
        // What the test targets share: XCTest shims for older toolchains, and loopback servers that
        // accept and never answer, or answer garbage.
        .target(name: "IPDataTestSupport", dependencies: ["IPDataLibC"], path: "Tests/IPDataTestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
