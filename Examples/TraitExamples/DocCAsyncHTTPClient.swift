// The Swift samples of IPDataAsyncHTTPClient.docc, compiled but never run (with the
// AsyncHTTPClient trait). `DocumentationSamplesTests` fails when one is not found here.
#if AsyncHTTPClient
import AsyncHTTPClient
import IPData
import IPDataAsyncHTTPClient

/// The samples of the IPDataAsyncHTTPClient landing page and of "Using IPData in a Server App".
enum DocCAsyncHTTPClient {
    static func overview() -> IPDataClient {
        let client = IPDataClient(
            apiKey: "YOUR_API_KEY",
            configuration: IPDataClient.Configuration(connection: .transport(AsyncHTTPClientTransport())))
        return client
    }

    static func yourHTTPClient() async throws {
        let httpClient = HTTPClient(configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        let client = IPDataClient(
            apiKey: "YOUR_API_KEY",
            configuration: IPDataClient.Configuration(connection: .transport(AsyncHTTPClientTransport(client: httpClient))))
        // When the app stops, after its last lookup:
        try await httpClient.shutdown()
        _ = client
    }

    static func limits() -> IPDataClient {
        let client = IPDataClient(
            apiKey: "YOUR_API_KEY",
            configuration: IPDataClient.Configuration(
                connection: .transport(AsyncHTTPClientTransport(timeout: 5)),
                deadline: 10,
                maximumResponseSize: 1_048_576))
        return client
    }
}
#endif
