import Foundation
import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The floor a user would write instead of the SDK (issue #24): `URLSession.shared` or
/// `URLSession(configuration: .default)`, URLSession's async `data(for:)`, a status check, and
/// `JSONDecoder` of the full `IPResponse` (or, as a reviewer's loop did, `JSONSerialization`).
/// No validation, no redaction, no coalescing, no deadline or size limit.
final class UserFloor: Sendable {
    /// How the loop reads each answer.
    enum Reading: String, Sendable {
        /// `JSONDecoder().decode(IPResponse.self, from:)`, a new decoder per answer.
        case decoder
        /// `JSONSerialization.jsonObject(with:)`.
        case serialization
    }

    let base: String
    let key: String
    let session: URLSession
    let reading: Reading

    /// A loop over `URLSession.shared`, or over a new `URLSession(configuration: .default)`.
    init(base: URL, key: String, shared: Bool, reading: Reading) {
        self.base = base.absoluteString
        self.key = key
        self.session = shared ? .shared : URLSession(configuration: .default)
        self.reading = reading
    }

    func lookup(_ ip: String) async -> Outcome {
        let request = URLRequest(url: URL(string: "\(base)/\(ip)?api-key=\(key)")!)
        do {
            #if canImport(FoundationNetworking) && compiler(<6.0)
            let (data, response) = try await PlainURLSessionClient.dataTask(session, request)
            #else
            let (data, response) = try await session.data(for: request)
            #endif
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { return .failed }
            switch reading {
            case .decoder: _ = try JSONDecoder().decode(IPResponse.self, from: data)
            case .serialization: _ = try JSONSerialization.jsonObject(with: data)
            }
            return .succeeded
        } catch let error as URLError where error.code == .timedOut {
            return .timedOut
        } catch {
            return .failed
        }
    }
}

/// How one lookup of a benchmark ended.
enum Outcome: Sendable {
    case succeeded
    /// `URLError(.timedOut)`, through the SDK or not: a request that waited past its timeout.
    case timedOut
    case failed

    /// How a lookup through the SDK ended.
    init(_ lookup: () async throws -> IPResponse) async {
        do {
            _ = try await lookup()
            self = .succeeded
        } catch IPDataError.networkError(let error as URLError) where error.code == .timedOut {
            self = .timedOut
        } catch {
            self = .failed
        }
    }
}
