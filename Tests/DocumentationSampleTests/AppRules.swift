// The app rules of IPDataTesting.docc/WritingTestsWithTheSandbox.md and IPData.docc/TestingYourApp.md,
// which the articles' tests (and the Swift Testing sample) check.
import IPData

/// Refuses sign-ups from anonymising networks.
func signUpIsAllowed(from ip: String, client: IPDataClient) async throws -> Bool {
    let info = try await client.lookup(ip)
    let threat = info.threat
    return !(threat?.isTor ?? false) && !(threat?.isVPN ?? false) && !(threat?.isThreat ?? false)
}

/// Shows the cookie banner to visitors in the EU.
func needsCookieBanner(for ip: String, client: IPDataClient) async throws -> Bool {
    try await client.lookup(ip, fields: ["is_eu"]).isEU ?? false
}

/// What the app tells the user when the lookup fails.
func userMessage(for error: IPDataError) -> String {
    switch error {
    case .unauthorized: return "Configuration problem"
    case .forbidden: return "Service limit reached, try later"
    case .networkError: return "You appear to be offline"
    case .badRequest, .notFound: return "That address cannot be checked"
    case .unexpectedStatus, .decodingFailed: return "Something went wrong"
    }
}

/// The line under a sign-in from a new place, such as "Mountain View, United States (VPN)".
func signInPlace(_ info: IPResponse) -> String {
    let place = [info.city, info.countryName].compactMap { $0 }.joined(separator: ", ")
    return info.threat?.isVPN == true ? "\(place) (VPN)" : place
}
