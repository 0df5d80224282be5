import Foundation

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension IPDataClient {
    /// The session under a client built on URLSession (what the tests look at; the client itself
    /// knows only its transport).
    var session: URLSession? { (transport as? URLSessionTransport)?.session }

    /// The delegate of the session the client's transport created, if it created one.
    var ownedSessionDelegate: OwnedSessionDelegate? { (transport as? URLSessionTransport)?.ownedSessionDelegate }
}
