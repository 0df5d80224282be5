// swift-tools-version: 5.9
// The benchmarks, a package of their own so that the library's package stays free of them.
// Build: swift build -c release --package-path Benchmarks. Run everything: Benchmarks/run.sh.
import PackageDescription

let package = Package(
    name: "IPDataBenchmarks",
    platforms: [.macOS(.v12)],
    dependencies: [.package(name: "IPData", path: "..")],
    targets: [
        .executableTarget(
            name: "ipdata-benchmarks", dependencies: [.product(name: "IPData", package: "IPData")],
            path: "Sources/ipdata-benchmarks"),
    ]
)
