// The app-side Swift samples of IPData.docc/TestingYourApp.md, compiled but never run; its test
// class runs in Tests/DocumentationSampleTests and its Package.swift fragment is not compiled.
// `DocumentationSamplesTests` fails when a sample is not found in either place.
import Foundation
import IPData
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refuses sign-ups from anonymising networks.
func signUpIsAllowed(from ip: String, client: IPDataClient) async throws -> Bool {
    let threat = try await client.lookup(ip).threat
    return !(threat?.isTor ?? false) && !(threat?.isVPN ?? false) && !(threat?.isThreat ?? false)
}

/// The transport sample of "Testing Your App".
enum TestingYourApp {
    static func loggingClient() -> IPDataClient {
        struct LoggingTransport: IPDataTransport {
            let session: URLSession

            func data(for request: URLRequest) async throws -> (Data, URLResponse) {
                let (body, response) = try await session.data(for: request)
                print((response as? HTTPURLResponse)?.statusCode ?? 0, body.count, "bytes")
                return (body, response)
            }
        }

        let client = IPDataClient(
            apiKey: "YOUR_API_KEY",
            configuration: IPDataClient.Configuration(connection: .transport(LoggingTransport(session: .shared))))
        return client
    }
}

/// The line under a sign-in from a new place, such as "Mountain View, United States (VPN)".
func signInPlace(_ info: IPResponse) -> String {
    let place = [info.city, info.countryName].compactMap { $0 }.joined(separator: ", ")
    return info.threat?.isVPN == true ? "\(place) (VPN)" : place
}
