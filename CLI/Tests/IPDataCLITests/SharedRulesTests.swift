// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import IPDataTesting
import XCTest

@testable import ipdata_cli

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The three modules read the API's rules from one definition in the library: the client, the
/// command-line tool and the sandbox agree on every row of the same tables.
final class SharedRulesTests: XCTestCase {
    private static let asnTexts = [
        "AS15169", "as15169", "15169", "As1", "AS4294967295", "AS", "ASBlah", "AS 1", "AS١٥", "AS12345678901", "",
        "8.8.8.8", "-15169", "AS+1",
    ]

    func testTheClientTheToolAndTheSandboxAgreeOnWhatNamesAnASN() async throws {
        for text in Self.asnTexts {
            let sandbox = IPDataSandbox()
            let client = sandbox.client()
            let answer: Result<ASNDetail, Error>
            do { answer = .success(try await client.lookupASN(text)) } catch { answer = .failure(error) }
            let clientSent = !sandbox.requests.isEmpty
            let toolReadsAnASN = (try? LookupCommand.Target(arguments: [text])).map {
                if case .asn = $0 { return true } else { return false }
            }
            XCTAssertEqual(toolReadsAnASN ?? false, clientSent, "\(text.debugDescription): the tool and the client")
            guard clientSent else {
                guard case .failure(IPDataError.notFound(let message)) = answer else {
                    return XCTFail("\(text.debugDescription): \(answer)")
                }
                XCTAssertTrue(message.hasSuffix(" was not found."), message)
                continue
            }
            // The sandbox read the client's request as an ASN call: AS15169 is known, others are not.
            XCTAssertEqual(sandbox.requests.first?.path, "/" + (ASNumber.pathSegment(text) ?? "?"))
            switch answer {
            case .success(let detail): XCTAssertEqual(detail.asn, "AS15169", text)
            case .failure(IPDataError.notFound(let message)):
                XCTAssertEqual(message, APIMessage.asnNotFound(ASNumber.pathSegment(text)!), text)
            case .failure(let error): XCTFail("\(text.debugDescription): \(error)")
            }
        }
    }

    private static let addressTexts = [
        "8.8.8.8", "010.1.1.1", "2001:DB8::1", "::ffff:1.2.3.4", "fe80::1%eth0", "1.2.3", " 8.8.8.8", "192.168.1.1",
        "10.0.0.1", "224.0.0.1", "ff02::1", "fd00::1", "::1", "8.8.8.8/32", "bleh", "192.0.2.1", "198.51.100.23",
        "203.0.113.9", "2001:db8::1", "100.64.0.1", "100.128.0.1",
    ]

    func testTheClientAndTheSandboxAgreeOnWhatIsAnAddressAndWhatItsScopeIs() async throws {
        for text in Self.addressTexts {
            let sandbox = IPDataSandbox()
            let client = sandbox.client()
            // The client's verdict: sent, or refused before sending.
            var refusedLocally = false
            var apiMessage: String?
            do {
                _ = try await client.lookup(text)
            } catch IPDataError.badRequest(let message) {
                refusedLocally = sandbox.requests.isEmpty
                apiMessage = message
            }
            // The sandbox's verdict on the same text, sent to it directly.
            let url = URL(string: "https://api.ipdata.co/" + Self.percentEncoded(text, keeping: ":"))!
            let (body, response) = try await sandbox.data(for: URLRequest(url: url))
            let status = (response as? HTTPURLResponse)?.statusCode
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            let sandboxMessage = object?["message"] as? String

            XCTAssertEqual(refusedLocally, IPAddress(text) == nil, text)
            if refusedLocally {
                XCTAssertEqual(apiMessage, APIMessage.invalidAddress(text))
                XCTAssertEqual(sandboxMessage, apiMessage, "the sandbox refuses it in the same words")
                continue
            }
            switch IPAddress(text)!.scope {
            case .public: XCTAssertEqual(status, 200, text)
            case .private: XCTAssertEqual(apiMessage ?? sandboxMessage, APIMessage.privateAddress(text))
            case .reserved: XCTAssertEqual(apiMessage ?? sandboxMessage, APIMessage.reservedAddress(text))
            }
        }
    }

    /// `text` with every character but RFC 3986's unreserved ones and `kept` percent-encoded, as
    /// the client writes an address in a path (`:` kept) and the key in a query.
    private static func percentEncoded(_ text: String, keeping kept: String = "") -> String {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        return text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: unreserved + kept))!
    }

    /// A transport that fails every request the way URLSession does: with the request's URL,
    /// key and all, in the error.
    private struct FailingTransport: IPDataTransport {
        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            throw URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
        }
    }

    private static let keys = ["key-with-dash-0123", "abc/def+ghi=jkl", "ключ-тест-1234", "a key with spaces"]

    func testTheClientAndTheToolHideTheSameFormsOfAKey() async throws {
        for key in Self.keys {
            let encoded = Self.percentEncoded(key)
            var description = ""
            do {
                _ = try await IPDataClient(
                    apiKey: key, configuration: .init(connection: .transport(FailingTransport()))
                ).lookup("8.8.8.8")
            } catch {
                description = String(describing: error) + String(reflecting: error)
            }
            XCTAssertFalse(description.isEmpty)
            XCTAssertFalse(description.contains(key), "client: \(description)")
            XCTAssertFalse(description.contains(encoded), "client: \(description)")

            let console = Console(arguments: ["--api-key", key], environment: [:])
            let printed = console.redact("header \(key), url https://api.ipdata.co/?api-key=\(encoded)")
            XCTAssertEqual(printed, "header REDACTED, url https://api.ipdata.co/?api-key=REDACTED", key)
        }
    }
}
#endif
