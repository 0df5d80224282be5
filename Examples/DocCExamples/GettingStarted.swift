// The Swift samples of IPData.docc/GettingStarted.md, compiled but never run (its Package.swift
// fragment excepted). `DocumentationSamplesTests` fails when one is not found here.
import Foundation
import IPData
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The samples of "Getting Started with IPData".
enum GettingStarted {
    static func oneClient() -> IPDataClient {
        let client = IPDataClient(apiKey: "YOUR_API_KEY")
        return client
    }

    static func sessionOfItsOwn() -> IPDataClient {
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 10
        let client = IPDataClient(apiKey: "YOUR_API_KEY", configuration: configuration)
        return client
    }

    static func euEndpoint() -> IPDataClient {
        let client = IPDataClient(apiKey: "YOUR_API_KEY", baseURL: IPDataClient.euBaseURL)
        return client
    }

    // The sample lines up its end-of-line comments, which swift-format would undo.
    // swift-format-ignore
    static func lookUpAnAddress(client: IPDataClient) async throws {
        let info = try await client.lookup("1.1.1.1")
        print(info.countryCode ?? "")   // AU
        print(info.asn?.name ?? "")     // Cloudflare, Inc.
    }

    static func lookUpThisDevice(client: IPDataClient) async throws {
        let me = try await client.lookup()
        print(me.ip ?? "unknown")
    }

    static func selectedFields(client: IPDataClient) async throws -> IPResponse {
        let info = try await client.lookup("8.8.8.8", fields: ["ip", "city", "country_name"])
        return info
    }

    static func singleFields(client: IPDataClient) async throws -> (ASN, String) {
        let asn = try JSONDecoder().decode(ASN.self, from: try await client.lookupField("8.8.8.8", field: "asn"))
        let country = String(decoding: try await client.lookupField("8.8.8.8", field: "country_name"), as: UTF8.self)
        return (asn, country)
    }

    static func threatData(client: IPDataClient) async throws {
        let info = try await client.lookup("185.220.101.1")
        if let threat = info.threat {
            print("Tor: \(threat.isTor ?? false), VPN: \(threat.isVPN ?? false)")
            print("Trust score: \(threat.scores?.trustScore ?? 0)")
            for entry in threat.blocklists ?? [] {
                print("Listed on \(entry.name ?? "") since \(entry.firstSeen ?? "?")")
            }
        }
    }

    // The sample lines up its end-of-line comments, which swift-format would undo.
    // swift-format-ignore
    static func network(client: IPDataClient) async throws {
        let detail = try await client.lookupASN("AS15169")
        print(detail.name ?? "")          // Google LLC
        print(detail.ipv4Prefixes ?? [])
    }

    // The sample lines up its end-of-line comments, which swift-format would undo.
    // swift-format-ignore
    static func handleErrors(client: IPDataClient) async {
        do {
            let info = try await client.lookup("8.8.8.8")
            print(info.city ?? "")
        } catch IPDataError.forbidden(let message) {
            print("Quota exhausted or not in your plan: \(message)")
        } catch {
            print(error)   // for example "Unauthorized: You have not provided a valid API Key."
        }
    }
}
