// The README's samples for servers, compiled but never run: they need the AsyncHTTPClient trait,
// and the Hummingbird app the Hummingbird trait too (`swift build --traits AsyncHTTPClient,Hummingbird`).
// `ReadmeTests` fails when a sample in the README is not found here or in ReadmeExamples, line
// for line; keep them in step.
#if AsyncHTTPClient
import IPData
import IPDataAsyncHTTPClient

/// README, "On servers: AsyncHTTPClient".
enum ReadmeAsyncHTTPClient {
    static func client() -> IPDataClient {
        let client = IPDataClient(
            apiKey: "YOUR_API_KEY",
            configuration: IPDataClient.Configuration(
                connection: .transport(AsyncHTTPClientTransport()),
                deadline: 10,
                maximumResponseSize: 1_048_576
            )
        )
        return client
    }
}
#endif

#if AsyncHTTPClient && Hummingbird
import AsyncHTTPClient
import Hummingbird

/// README, "A Hummingbird app". (Hummingbird 2 needs macOS 14 or iOS 17 on Apple platforms.)
@available(macOS 14, iOS 17, tvOS 17, *)
enum ReadmeHummingbird {
    static func runServer() async throws {
        // The app's client for outgoing requests: it must follow no redirects (the key would go along).
        let httpClient = HTTPClient(configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        let ipdata = IPDataClient(
            apiKey: "YOUR_API_KEY",
            configuration: IPDataClient.Configuration(connection: .transport(AsyncHTTPClientTransport(client: httpClient)))
        )

        let router = Router()
        router.get("country/:ip") { _, context -> String in
            let ip = try context.parameters.require("ip")
            let info = try await ipdata.lookup(ip, fields: ["country_name"])
            return info.countryName ?? "unknown"
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
        do {
            try await app.runService()
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }
}
#endif

#if Hummingbird
import Hummingbird
import IPData
import IPDataHummingbird
import NIOCore

/// README, "On servers: who is asking, in every request".
@available(macOS 14, iOS 17, tvOS 17, *)
enum ReadmeMiddleware {
    struct AppContext: IPDataRequestContext, RemoteAddressRequestContext {
        var coreContext: CoreRequestContextStorage
        var remoteAddress: SocketAddress?
        var ipData: IPDataClientInfo?

        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            remoteAddress = source.channel.remoteAddress
        }
    }

    static func run() async throws {
        // One client for the app, with a cache: each address is paid for once a day.
        let ipdata = IPDataClient(apiKey: "YOUR_API_KEY", configuration: IPDataClient.Configuration(cache: LookupCache()))
        // nginx on this machine sets X-Forwarded-For; nothing else is believed.
        let resolver = try ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"])
        let policy = IPDataPolicy(blockedCountries: ["KP"], blocksTor: true, maximumThreatScore: 80)

        let router = Router(context: AppContext.self)
        router.add(
            middleware: IPDataMiddleware(client: ipdata, resolver: resolver, latencyBudget: .milliseconds(150), policy: policy))
        router.get("/") { _, context -> String in
            "Hello from \(context.ipData?.response?.countryName ?? "somewhere")"
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
        try await app.runService()
    }
}
#endif
