// swift-tools-version: 6.1
// The transports side by side: IPDataClient over AsyncHTTPClientTransport against IPDataClient over
// its own URLSession, on the same local server. A package of its own, with the library's
// AsyncHTTPClient trait on, so that neither the library nor the main benchmarks depend on it.
// Build: swift build -c release --package-path Benchmarks/AsyncHTTPClient (needs the offline
// SwiftPM mirrors, see .ci/run). Run: Benchmarks/AsyncHTTPClient/run.sh.
import PackageDescription

let package = Package(
    name: "IPDataTransportBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "IPData", path: "../..", traits: ["AsyncHTTPClient"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.33.1"),
    ],
    targets: [
        .executableTarget(
            name: "ipdata-transport-benchmarks",
            dependencies: [
                .product(name: "IPData", package: "IPData"),
                .product(name: "IPDataAsyncHTTPClient", package: "IPData"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ])
    ]
)
