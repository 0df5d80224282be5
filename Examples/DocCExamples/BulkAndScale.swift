// The Swift samples of IPData.docc/BulkAndScale.md, compiled but never run.
// `DocumentationSamplesTests` fails when one is not found here.
import IPData

/// The samples of "Looking Up Many Addresses".
enum BulkAndScale {
    // The sample lines up its end-of-line comments, which swift-format would undo.
    // swift-format-ignore
    static func bulk(client: IPDataClient) async throws {
        let results = try await client.bulkLookup(["1.1.1.1", "8.8.8.8", "10.0.0.1"])
        for info in results {
            if let reason = info.message {
                print("\(info.ip ?? ""): rejected, \(reason)")   // 10.0.0.1: rejected, 10.0.0.1 is a private IP address
            } else {
                print("\(info.ip ?? ""): \(info.countryName ?? "")")
            }
        }
    }

    static func stream(client: IPDataClient, addresses: [String]) async throws {
        for try await item in client.lookupStream(addresses) {
            switch item.result {
            case .success(let info):
                print("\(item.ip): \(info.countryCode ?? "")")
            case .failure(let error):
                print("\(item.ip): \(error)")
            }
        }
    }

    static func collect(client: IPDataClient, addresses: [String]) async throws {
        let results = try await client.lookupAll(addresses, fields: ["ip", "country_code"])
        print(results.filter { $0.error != nil }.count, "failed")
    }

    static func window(client: IPDataClient, addresses: [String]) async throws {
        let options = LookupStreamOptions(concurrency: 8)
        for try await item in client.lookupStream(addresses, options: options) {
            print(item.ip, item.response?.countryCode ?? "")
        }
    }

    // The sample lines up its end-of-line comments, which swift-format would undo.
    // swift-format-ignore
    static func stopOnABadKey(client: IPDataClient, addresses: [String]) async throws {
        for try await item in client.lookupStream(addresses) {
            if item.isRequestFailure, case .unauthorized = item.error {
                break   // no point going on with a bad key
            }
            // …
        }
    }

    static func withoutFallback() -> LookupStreamOptions {
        let options = LookupStreamOptions(fallsBackToSingleLookups: false)
        return options
    }

    static func events(client: IPDataClient, addresses: [String]) async throws -> [IPLookupResult] {
        let options = LookupStreamOptions(onEvent: { event in
            switch event {
            case .requestSent(let addresses):
                print("sent a request for \(addresses) address(es)")
            case .switchedToSingleLookups:
                print("no bulk access: looking up one address at a time")
            }
        })
        let results = try await client.lookupAll(addresses, options: options)
        return results
    }

    static func cached() -> IPDataClient {
        let cache = LookupCache(maximumEntries: 10_000, timeToLive: 15 * 60)
        let client = IPDataClient(apiKey: "YOUR_API_KEY", configuration: IPDataClient.Configuration(cache: cache))
        return client
    }
}
