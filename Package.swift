// swift-tools-version: 5.9
// Swift 5.9 and 5.10 toolchains read this manifest; Swift 6 toolchains read Package@swift-6.0.swift.
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
    ]
)
