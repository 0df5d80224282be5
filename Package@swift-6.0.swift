// swift-tools-version: 6.0
// Swift 6 toolchains read this manifest: the same package in the Swift 6 language mode
// (complete concurrency checking). Keep its targets in step with Package.swift.
import PackageDescription

let package = Package(
    name: "IPData",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "IPData", targets: ["IPData"]),
    ],
    targets: [
        .target(name: "IPData"),
        // Every Swift sample in README.md, compiled (never run) so the documentation cannot rot.
        .target(name: "ReadmeExamples", dependencies: ["IPData"], path: "Examples/ReadmeExamples"),
        .testTarget(name: "IPDataTests", dependencies: ["IPData"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
