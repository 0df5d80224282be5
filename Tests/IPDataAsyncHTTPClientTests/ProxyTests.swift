#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import IPData
import IPDataTestSupport
import XCTest

@testable import IPDataAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `clientConfiguration(proxyFrom:host:)`: the variables curl reads, and lookups of the local API
/// server through a CONNECT proxy on loopback (TestServer/connect-proxy.py), counted at the proxy.
final class ProxyTests: XCTestCase {
    func testTheVariablesAreReadAsCurlReadsThem() {
        func proxy(_ environment: [String: String], host: String = "api.ipdata.co") -> String {
            AsyncHTTPClientTransport.proxy(from: environment, host: host).map { "\($0.host):\($0.port)" } ?? "none"
        }
        XCTAssertEqual(proxy([:]), "none")
        XCTAssertEqual(proxy(["HTTPS_PROXY": "http://proxy.corp:3128"]), "proxy.corp:3128")
        XCTAssertEqual(proxy(["https_proxy": "proxy.corp:8080", "HTTPS_PROXY": "other:1"]), "proxy.corp:8080")
        XCTAssertEqual(proxy(["ALL_PROXY": "http://proxy.corp"]), "proxy.corp:1080")
        XCTAssertEqual(proxy(["HTTPS_PROXY": "socks5://proxy.corp:1080"]), "none", "not an HTTP proxy")
        for exception in ["api.ipdata.co", ".ipdata.co", "ipdata.co", "localhost, ipdata.co", "*"] {
            XCTAssertEqual(proxy(["HTTPS_PROXY": "http://p:1", "NO_PROXY": exception]), "none", exception)
        }
        XCTAssertEqual(proxy(["HTTPS_PROXY": "http://p:1", "no_proxy": "data.co"]), "p:1", "a suffix of a label")
        let authorized = AsyncHTTPClientTransport.proxy(from: ["HTTPS_PROXY": "http://ann:s%40cret@p:1"], host: "h")
        XCTAssertEqual(authorized?.authorization, .basic(credentials: Data("ann:s@cret".utf8).base64EncodedString()))
    }

    /// The proxy, started, with its log of CONNECT requests.
    private final class ConnectProxy {
        let process = Process()
        let log: URL
        let port: Int

        init() throws {
            log = FileManager.default.temporaryDirectory.appendingPathComponent("connect-proxy-\(UUID()).log")
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("TestServer/connect-proxy.py")
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, log.path]
            process.standardOutput = output
            try process.run()
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                kill(process.processIdentifier, SIGKILL)
                throw XCTSkip("the CONNECT proxy did not start: \(line)")
            }
            self.port = port
        }

        var requests: [String] {
            (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }

        /// SIGKILL: a process started from a Dispatch thread inherits its blocked signals, SIGTERM
        /// among them.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: log)
        }
    }

    func testLookupsGoThroughTheProxyAndItNeverSeesTheKey() async throws {
        #if os(Linux) || os(macOS)
        let environment = try localServerEnvironment()
        let base = try XCTUnwrap(URL(string: environment["IPDATA_TEST_URL_NORMAL"]!))
        let key = environment["IPDATA_TEST_KEY"] ?? "test-key"
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        for (noProxy, tunnels) in [("", 1), ("127.0.0.1", 0)] {
            let configuration = AsyncHTTPClientTransport.clientConfiguration(
                proxyFrom: ["HTTPS_PROXY": "http://ann:pw@127.0.0.1:\(proxy.port)", "NO_PROXY": noProxy],
                host: base.host!)
            let httpClient = HTTPClient(configuration: configuration)
            let before = proxy.requests.count
            let client = IPDataClient(
                apiKey: key,
                configuration: .init(
                    baseURL: base, connection: .transport(AsyncHTTPClientTransport(client: httpClient))))
            for ip in ["8.8.8.8", "1.1.1.1", "8.8.4.4"] {
                let answer = try await client.lookup(ip)
                XCTAssertEqual(answer.ip, ip)
            }
            try await httpClient.shutdown()
            let added = proxy.requests.dropFirst(before)
            XCTAssertEqual(added.count, tunnels, "NO_PROXY=\(noProxy): one tunnel for the three lookups, or none")
            if let request = added.first {
                XCTAssertTrue(request.hasPrefix("CONNECT 127.0.0.1:\(base.port!) HTTP/1.1"), request)
                let credentials = Data("ann:pw".utf8).base64EncodedString()
                XCTAssertTrue(
                    request.lowercased().contains("proxy-authorization: basic \(credentials.lowercased())"), request)
                XCTAssertFalse(request.contains(key), "the proxy saw the key: \(request)")
            }
        }
        #else
        throw XCTSkip("Process() is not available here")
        #endif
    }
}
#endif
