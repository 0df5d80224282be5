// Every Swift sample in README.md, compiled but never run. `ReadmeTests` fails when a sample in
// the README is not found here, line for line; keep the two in step.
import Foundation
import IPData
import IPDataTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum QuickStart {
    static func run() async throws {
        let client = IPDataClient(apiKey: "YOUR_API_KEY")

        // Look up one address
        let info = try await client.lookup("8.8.8.8")
        print(info.city ?? "")          // Mountain View
        print(info.countryName ?? "")   // United States
        print(info.threat?.isVPN ?? false)
    }
}

enum ConfiguringAClient {
    static func everything() -> IPDataClient {
        let client = IPDataClient(
            apiKey: "YOUR_API_KEY",
            configuration: IPDataClient.Configuration(
                baseURL: IPDataClient.euBaseURL,
                connection: .owned(.ephemeral),
                cache: LookupCache(),
                retryPolicy: .recommended
            )
        )
        return client
    }

    static func retries() -> IPDataClient {
        let patient = RetryPolicy(maximumAttempts: 5, initialDelay: 1, maximumDelay: 20, timeBudget: 60)
        let client = IPDataClient(
            apiKey: "YOUR_API_KEY", configuration: IPDataClient.Configuration(retryPolicy: patient))
        return client
    }
}

enum ConnectionReuse {
    static func dedicatedSession() -> IPDataClient {
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 10
        let client = IPDataClient(apiKey: "YOUR_API_KEY", configuration: configuration)
        return client
    }
}

enum Usage {
    static func currentDevice(client: IPDataClient) async throws {
        let info = try await client.lookup()
        print(info.ip ?? "unknown")
    }

    static func specificAddress(client: IPDataClient) async throws {
        let info = try await client.lookup("1.1.1.1")
        print(info.countryCode ?? "")  // AU
        print(info.asn?.name ?? "")    // Cloudflare, Inc.
    }

    static func selectedFields(client: IPDataClient) async throws -> IPResponse {
        let info = try await client.lookup("8.8.8.8", fields: ["ip", "city", "country_name"])
        return info
    }

    static func singleField(client: IPDataClient) async throws -> Data {
        let data = try await client.lookupField("8.8.8.8", field: "asn")
        return data
    }

    static func bulk(client: IPDataClient) async throws {
        let results = try await client.bulkLookup(["1.1.1.1", "8.8.8.8"])
        for info in results {
            print("\(info.ip ?? ""): \(info.countryName ?? "")")
        }
    }

    static func asn(client: IPDataClient) async throws {
        let detail = try await client.lookupASN("AS15169")
        print(detail.name ?? "")               // Google LLC
        print(detail.numIPs ?? "")             // 16777216
        print(detail.ipv4Prefixes ?? [])
        print(detail.peers ?? [])
    }

    static func threatIntelligence(client: IPDataClient) async throws {
        let info = try await client.lookup("1.2.3.4")
        if let threat = info.threat {
            print("Tor: \(threat.isTor ?? false)")
            print("VPN: \(threat.isVPN ?? false)")
            print("Proxy: \(threat.isProxy ?? false)")
            print("Threat score: \(threat.scores?.threatScore ?? 0)")
            print("Trust score: \(threat.scores?.trustScore ?? 0)")

            for entry in threat.blocklists ?? [] {
                print("Listed on: \(entry.name ?? "") (\(entry.type ?? ""))")
                if let firstSeen = entry.firstSeen, let lastSeen = entry.lastSeen {
                    print("  seen \(firstSeen) to \(lastSeen), \(entry.daysSeen ?? 0) day(s)")
                }
            }
        }
    }

    static func satelliteAndAnycast(client: IPDataClient) async throws {
        let info = try await client.lookup("8.8.8.8")
        if info.isAnycast {
            print("anycast address")
        }
        if info.isSatellite {
            print("satellite internet provider")
        }
    }

    static func euEndpoint() -> IPDataClient {
        let client = IPDataClient(apiKey: "YOUR_API_KEY", baseURL: IPDataClient.euBaseURL)
        return client
    }
}

enum Scale {
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
        let options = LookupStreamOptions(concurrency: 8, fallsBackToSingleLookups: false)
        let everything = try await client.lookupAll(addresses, fields: ["ip", "country_code"], options: options)
        print(everything.filter { $0.error != nil }.count, "failed")
    }

    static func cached() -> IPDataClient {
        let cache = LookupCache(maximumEntries: 10_000, timeToLive: 15 * 60)
        let client = IPDataClient(apiKey: "YOUR_API_KEY", configuration: IPDataClient.Configuration(cache: cache))
        return client
    }
}

enum ErrorHandling {
    static func run(client: IPDataClient) async throws {
        do {
            let info = try await client.lookup("8.8.8.8")
            print(info.ip ?? "")
        } catch let error as IPDataError {
            switch error {
            case .badRequest(let msg):
                print("Bad request: \(msg)")
            case .unauthorized(let msg):
                print("Invalid API key: \(msg)")
            case .forbidden(let msg):
                print("Forbidden (quota exceeded?): \(msg)")
            case .notFound(let msg):
                print("Not found: \(msg)")
            case .unexpectedStatus(let code, let msg):
                print("HTTP \(code): \(msg)")
            case .decodingFailed(let underlying):
                print("Decoding error: \(underlying)")
            case .networkError(let underlying):
                print("Network error: \(underlying)")
            }
        }
    }
}

enum TestingYourApp {
    static func sandbox() async throws {
        let sandbox = IPDataSandbox()
        let client = sandbox.client()
        let info = try await client.lookup(IPDataScenario.torExit.ip!)
        assert(info.threat?.isTor == true)
        assert(sandbox.requests.count == 1)
    }

    static func offline() async throws {
        let offline = IPDataSandbox(failing: .networkFailure).client()
        do {
            _ = try await offline.lookup("8.8.8.8")
        } catch IPDataError.networkError(let underlying) {
            print("offline:", underlying)
        }
    }
}

enum ClientAddressBehindProxies {
    static func run(client: IPDataClient, peer: String?, headers: [(name: String, value: String)]) async throws {
        // Your load balancers are in 10.0.0.0/8, and nginx runs on this machine.
        let resolver = try ClientAddressResolver(trustedProxies: ["10.0.0.0/8", "127.0.0.1"])
        // peer: the connection's remote address; headers: the request's, in order.
        if let address = resolver.clientAddress(peer: peer, headers: headers) {
            let info = try await client.lookup(address)
            print(info.countryName ?? "")
        }
    }
}
