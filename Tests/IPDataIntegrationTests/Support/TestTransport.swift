import Foundation
import IPData
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if AsyncHTTPClient
import AsyncHTTPClient
import IPDataAsyncHTTPClient
#endif

/// The transport the integration suite sends through, named by `IPDATA_TEST_TRANSPORT`:
/// `urlsession` (the default) or `asynchttpclient`, which needs a build with the
/// `AsyncHTTPClient` trait. `.ci/run` runs the suite both ways; a transport that breaks a
/// guarantee fails it.
enum TestTransport: String, Sendable {
    case urlSession = "urlsession"
    case asyncHTTPClient = "asynchttpclient"

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The transport `IPDATA_TEST_TRANSPORT` names. Throws, which fails every test (never skips
    /// it), for a name it does not know and for `asynchttpclient` in a build without the trait:
    /// the suite must not pass through URLSession while asked to prove AsyncHTTPClient.
    static func fromEnvironment() throws -> TestTransport {
        let name = ProcessInfo.processInfo.environment["IPDATA_TEST_TRANSPORT"] ?? ""
        guard let transport = name.isEmpty ? .urlSession : TestTransport(rawValue: name.lowercased()) else {
            throw Unavailable(description: "IPDATA_TEST_TRANSPORT=\(name): not urlsession or asynchttpclient")
        }
        #if !AsyncHTTPClient
        if transport == .asyncHTTPClient {
            throw Unavailable(
                description: "IPDATA_TEST_TRANSPORT=asynchttpclient, but this build lacks the AsyncHTTPClient trait "
                    + "(swift build --traits AsyncHTTPClient): the suite would run through URLSession instead")
        }
        #endif
        return transport
    }
}

/// What carries a test client's requests, through either transport.
enum ClientConnection: String, CaseIterable, Sendable {
    /// URLSession: a session the client owns (`.owned`). AsyncHTTPClient: an `HTTPClient` of the
    /// test's own, configured as `AsyncHTTPClientTransport.sharedClient` is, shut down after the test.
    case own
    /// URLSession: a session of the caller's (`.session`). AsyncHTTPClient has no such kind: the
    /// transport always sends through an `HTTPClient` it was given, so this is `own` there.
    case injected
    /// `URLSession.shared`, or `AsyncHTTPClientTransport.sharedClient`: what a client uses by default.
    case shared
}

extension LocalServerTestCase {
    /// The kinds of connection that differ through the transport under test.
    var connectionKinds: [ClientConnection] {
        transport == .urlSession ? ClientConnection.allCases : [.own, .shared]
    }

    /// A connection of `kind` through the transport under test, whose requests time out after
    /// `timeout` seconds without an answer (URLSession's `timeoutIntervalForRequest`,
    /// `AsyncHTTPClientTransport.timeout`). `.shared` keeps its own timeout.
    func connection(_ kind: ClientConnection = .own, timeout: TimeInterval = 20) -> IPDataClient.Connection {
        switch transport {
        case .urlSession:
            switch kind {
            case .own: return .owned(configuration(timeout: timeout))
            case .injected:
                let session = URLSession(configuration: configuration(timeout: timeout))
                addTeardownBlock { session.finishTasksAndInvalidate() }
                return .session(session)
            case .shared: return .shared
            }
        case .asyncHTTPClient:
            #if AsyncHTTPClient
            switch kind {
            case .own, .injected: return .transport(AsyncHTTPClientTransport(client: ownHTTPClient, timeout: timeout))
            case .shared: return .transport(AsyncHTTPClientTransport())
            }
            #else
            preconditionFailure("TestTransport.fromEnvironment() refuses asynchttpclient without the trait")
            #endif
        }
    }

    /// A client of `base` through the transport under test, with the test server's key unless
    /// `key` says otherwise; see `connection(_:timeout:)`.
    func client(
        _ base: URL, key: String? = nil, connection kind: ClientConnection = .own, timeout: TimeInterval = 20,
        retryPolicy: RetryPolicy = .default, deadline: TimeInterval? = nil, cache: LookupCache? = nil
    ) -> IPDataClient {
        IPDataClient(
            apiKey: key ?? server.key,
            configuration: .init(
                baseURL: base, connection: connection(kind, timeout: timeout), cache: cache, retryPolicy: retryPolicy,
                deadline: deadline))
    }

    /// Skips a test of URLSession itself when the suite runs through another transport; `why`
    /// names what it is about.
    func onlyThroughURLSession(_ why: String) throws {
        guard transport == .urlSession else {
            throw XCTSkip("URLSession only (\(why)); this run goes through \(transport.rawValue)")
        }
    }
}
