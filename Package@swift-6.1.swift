// swift-tools-version: 6.1
// Swift 6.1 and later read this manifest: the package of Package@swift-6.0.swift (keep them in
// step; scripts/check-manifests.sh checks it) plus the `AsyncHTTPClient`, `Hummingbird` and
// `Valkey` package traits, off by default. Only with a trait on does SwiftPM fetch its dependency
// (async-http-client, hummingbird, valkey-swift) and build its product's code
// (IPDataAsyncHTTPClient, IPDataHummingbird, IPDataValkey);
// without it that target builds empty.
import PackageDescription

let package = Package(
    name: "IPData",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "IPData", targets: ["IPData"]),
        // A stand-in for the API, for the tests of apps that use IPData (like swift-log's InMemoryLogging).
        .library(name: "IPDataTesting", targets: ["IPDataTesting"]),
        // A transport on AsyncHTTPClient (SwiftNIO), for servers: its code needs the
        // `AsyncHTTPClient` trait, without which the product is empty.
        .library(name: "IPDataAsyncHTTPClient", targets: ["IPDataAsyncHTTPClient"]),
        // A Hummingbird 2 middleware that looks up each request's client: its code needs the
        // `Hummingbird` trait, without which the product is empty.
        .library(name: "IPDataHummingbird", targets: ["IPDataHummingbird"]),
        // A lookup cache shared by every instance of an app, on Valkey or Redis: its code needs
        // the `Valkey` trait, without which the product is empty.
        .library(name: "IPDataValkey", targets: ["IPDataValkey"]),
        // Observers that send what a client does to swift-log, swift-metrics and
        // swift-distributed-tracing: its code needs the `Observability` trait.
        .library(name: "IPDataObservability", targets: ["IPDataObservability"]),
        // Vapor 4: `app.ipdata`, `req.ipdata` and a middleware that looks up each request's
        // client: its code needs the `Vapor` trait (which turns on `AsyncHTTPClient`).
        .library(name: "IPDataVapor", targets: ["IPDataVapor"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "Builds IPDataAsyncHTTPClient's AsyncHTTPClientTransport, on async-http-client."),
        .trait(name: "Hummingbird", description: "Builds IPDataHummingbird's IPDataMiddleware, on hummingbird 2."),
        .trait(
            name: "Valkey",
            description: "Builds IPDataValkey's ValkeyLookupStore, a shared lookup cache on valkey-swift."),
        .trait(
            name: "Observability",
            description:
                "Builds IPDataObservability's observers on swift-log, swift-metrics and swift-distributed-tracing."),
        .trait(
            name: "Vapor", description: "Builds IPDataVapor's app.ipdata and IPDataVaporMiddleware, on vapor 4.",
            enabledTraits: ["AsyncHTTPClient"]),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Used only with the AsyncHTTPClient trait (see the target's condition).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.33.1"),
        // Used only with the Hummingbird trait; without its default trait (swift-configuration).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.26.0", traits: []),
        // Used only with the Valkey trait (see the targets' conditions).
        .package(url: "https://github.com/valkey-io/valkey-swift.git", from: "1.4.0"),
        // HMAC-SHA256 of the Valkey trait's entries (CryptoKit on Apple platforms, BoringSSL
        // elsewhere). Used only with the Valkey trait.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        // Used only with the Observability trait.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
        // The Logger a ValkeyClient needs, for the Valkey trait's test and proof (valkey-swift's own
        // dependency), and IPDataObservability's.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.3"),
        // Used only with the Vapor trait.
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.0"),
    ],
    targets: [
        .target(
            name: "IPDataAsyncHTTPClient",
            dependencies: [
                "IPData",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(traits: ["AsyncHTTPClient"])),
            ]),
        .target(
            name: "IPDataValkey",
            dependencies: [
                "IPData",
                .product(name: "Valkey", package: "valkey-swift", condition: .when(traits: ["Valkey"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Valkey"])),
            ]),
        .target(
            name: "IPDataObservability",
            dependencies: [
                "IPData",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Observability"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Observability"])),
                .product(
                    name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
            ]),
        // The observers with each library's own test backend (needs the Observability trait).
        .testTarget(
            name: "IPDataObservabilityTests",
            dependencies: [
                "IPData", "IPDataObservability", "IPDataTesting",
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Observability"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Observability"])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing",
                    condition: .when(traits: ["Observability"])),
            ]),
        // The fleet and outage proof of IPDataValkey (scripts/valkey-fleet.sh): processes that share
        // one store look addresses up against the local server. Needs the Valkey trait.
        .executableTarget(
            name: "ipdata-valkey-fleet",
            dependencies: [
                "IPData", "IPDataValkey",
                .product(name: "Valkey", package: "valkey-swift", condition: .when(traits: ["Valkey"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Valkey"])),
            ]),
        // PrivacyInfo.xcprivacy: the privacy manifest Apple expects of an SDK in an App Store app.
        .target(name: "IPData", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "IPDataTesting", dependencies: ["IPData"]),
        // The C library (Glibc, Musl or Darwin) for the targets that call it, the tests:
        // `import IPDataLibC`. No library product depends on it, so it never reaches an app.
        .target(name: "IPDataLibC"),
        // The DocC articles' test samples, run (scripts/check-samples.sh type-checks every sample of
        // README.md and the articles as printed, against the built modules).
        .testTarget(name: "DocumentationSampleTests", dependencies: ["IPData", "IPDataTesting"]),
        // What the Hummingbird and Vapor middlewares share, on IPData's public API alone (no
        // dependency, no trait): the budget, the limits, the policy and what they learn.
        .target(name: "IPDataServer", dependencies: ["IPData"]),
        .testTarget(name: "IPDataServerTests", dependencies: ["IPData", "IPDataServer", "IPDataTestSupport"]),
        .target(
            name: "IPDataVapor",
            dependencies: [
                "IPData", "IPDataServer",
                .target(name: "IPDataAsyncHTTPClient", condition: .when(traits: ["Vapor"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .target(name: "IPDataObservability", condition: .when(traits: ["Observability"])),
            ]),
        // IPDataVapor in a Vapor app served on loopback, against the local server (needs the
        // Vapor trait; without it the target builds empty).
        .testTarget(
            name: "IPDataVaporTests",
            dependencies: [
                "IPData", "IPDataVapor", "IPDataTestSupport",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Vapor"])),
                .target(name: "IPDataObservability", condition: .when(traits: ["Observability"])),
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Observability"])),
            ]),
        .target(
            name: "IPDataHummingbird",
            dependencies: [
                "IPData", "IPDataServer",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                // The request's logger for IPDataLoggingObserver, when Observability is on too.
                .target(name: "IPDataObservability", condition: .when(traits: ["Observability"])),
            ]),
        // IPDataMiddleware in a Hummingbird app (HummingbirdTesting) against the local server
        // (needs the Hummingbird trait; without it the target builds empty).
        .testTarget(
            name: "IPDataHummingbirdTests",
            dependencies: [
                "IPData", "IPDataHummingbird", "IPDataTestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .target(name: "IPDataObservability", condition: .when(traits: ["Observability"])),
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Observability"])),
            ]),
        .testTarget(
            name: "IPDataTests", dependencies: ["IPData", "IPDataLibC", "IPDataTestSupport"],
            resources: [.copy("Fixtures")]),
        // Against the local HTTPS + HTTP/2 stand-in in TestServer/ (started by .ci/run).
        .testTarget(name: "IPDataIntegrationTests", dependencies: ["IPData", "IPDataTestSupport"]),
        // AsyncHTTPClientTransport without a server (needs the AsyncHTTPClient trait; without it the
        // target builds empty). Its guarantees against the server are IPDataIntegrationTests'.
        .testTarget(
            name: "IPDataAsyncHTTPClientTests",
            dependencies: [
                "IPData", "IPDataAsyncHTTPClient", "IPDataTestSupport",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(traits: ["AsyncHTTPClient"])),
            ]),
        // ValkeyLookupStore against a real redis-server on loopback (needs the Valkey trait; without
        // it the target builds empty).
        .testTarget(
            name: "IPDataValkeyTests",
            dependencies: [
                "IPData", "IPDataValkey", "IPDataLibC", "IPDataTestSupport",
                .product(name: "Valkey", package: "valkey-swift", condition: .when(traits: ["Valkey"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Valkey"])),
            ]),
        // The kit's own tests, written the way an app developer would write theirs.
        .testTarget(name: "IPDataTestingTests", dependencies: ["IPDataTesting", "IPDataTestSupport"]),
        // What the test targets share: XCTest shims for older toolchains, and loopback servers that
        // accept and never answer, or answer garbage.
        .target(name: "IPDataTestSupport", dependencies: ["IPDataLibC"], path: "Tests/IPDataTestSupport"),
    ],
    swiftLanguageModes: [.v6]
)

// The integration suite runs through AsyncHTTPClientTransport too (IPDATA_TEST_TRANSPORT=asynchttpclient,
// as .ci/run does), so with the trait it depends on it. Added here so that the target's line stays
// the Swift 6 manifest's (scripts/check-manifests.sh).
for target in package.targets where target.name == "IPDataIntegrationTests" {
    target.dependencies += [
        .target(name: "IPDataAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
        .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
    ]
}
