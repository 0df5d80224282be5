// The Swift sample of IPData.docc/Errors.md, compiled but never run.
// `DocumentationSamplesTests` fails when it is not found here.
import IPData

/// The sample of "Handling Errors".
enum HandlingErrors {
    static func everyCase(client: IPDataClient) async throws {
        do {
            let info = try await client.lookup("8.8.8.8")
            print(info.ip ?? "")
        } catch let error as IPDataError {
            switch error {
            case .badRequest(let message):
                print("Bad request: \(message)")
            case .unauthorized(let message):
                print("Invalid API key: \(message)")
            case .forbidden(let message):
                print("Forbidden (quota exceeded?): \(message)")
            case .notFound(let message):
                print("Not found: \(message)")
            case .unexpectedStatus(let code, let message):
                print("HTTP \(code): \(message)")
            case .decodingFailed(let underlying):
                print("Decoding error: \(underlying)")
            case .networkError(let underlying):
                print("Network error: \(underlying)")
            }
        }
    }
}
