import Foundation
import XCTest

@testable import IPData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Servers that misbehave on purpose (the backend's `/hostile/KIND/` answers) cannot exhaust the
/// client: not its memory, not its time. They are asked directly, over plain HTTP/1.1 on
/// loopback (which the client allows), so that what they do to connections stays out of nginx's
/// pool, which the other tests share.
final class HostileServerTests: LocalServerTestCase {
    private func base(_ kind: String) -> URL {
        URL(string: server.url("BACKEND").absoluteString + "/hostile/\(kind)")!
    }

    /// The most memory this process has held, in bytes (Linux), or nil.
    private var peakMemory: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// On Linux only a session the client owns hands the body over as it arrives; through
    /// `URLSession.shared` or an injected session swift-corelibs-foundation shows nothing until the
    /// answer is complete (not even a byte count), so there only the deadline bounds it.
    /// AsyncHTTPClient hands every body over as it arrives.
    func testAnEndlessBodyStopsAtTheSizeLimit() async throws {
        var connections = [ClientConnection.own]
        #if canImport(FoundationNetworking)
        if transport != .urlSession { connections.append(.shared) }
        #else
        connections.append(.shared)
        #endif
        for connection in connections {
            let label = "\(connection)"
            let client = client(base("endless"), connection: connection)
            let before = peakMemory
            let start = Date()
            let error = await failure { try await client.lookup("8.8.8.8") }
            guard case .networkError(let underlying as URLError)? = error else {
                XCTFail("\(label): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(underlying.code, .dataLengthExceedsMaximum, label)
            // The limit, as the client words it, through either transport.
            XCTAssertTrue(error!.description.contains("larger than 10 MiB"), error!.description)
            let grown = zip(before.map { [$0] } ?? [], peakMemory.map { [$0] } ?? []).map { $1 - $0 }.first
            if let grown { XCTAssertLessThan(grown, 512 * 1_048_576, "\(label): peak memory grew \(grown) bytes") }
            print(
                "measured: \(transport.rawValue), \(label) connection, endless body stopped after "
                    + "\(Int(elapsed(since: start) * 1000)) ms, peak memory +\((grown ?? 0) / 1_048_576) MiB")
        }
    }

    /// A body trickled one byte at a time (for 100 s): the answer's head has arrived, so only the
    /// client's deadline ends it.
    func testABodyTrickledOneByteAtATimeStopsAtTheDeadline() async throws {
        let connections: [ClientConnection] = transport == .urlSession ? [.own, .injected] : [.own, .shared]
        for connection in connections {
            let label = "\(connection)"
            let client = client(base("trickle"), connection: connection, timeout: 30, deadline: 2)
            let start = Date()
            let error = await failure { try await client.lookup("8.8.8.8") }
            guard case .networkError(let underlying as URLError)? = error else {
                XCTFail("\(label): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(underlying.code, .timedOut, label)
            XCTAssertTrue(error!.description.contains("deadline of 2 s"), error!.description)
            XCTAssertLessThan(elapsed(since: start), 15, "\(label): long before the trickle's end (100 s)")
            let milliseconds = Int(elapsed(since: start) * 1000)
            print(
                "measured: \(transport.rawValue), \(label) connection, trickled body stopped at the 2 s deadline after \(milliseconds) ms"
            )
        }
    }

    func testABulkAnswerLongerThanTheRequestIsRefusedBeforeDecoding() async throws {
        let client = client(base("bulk-million"))
        let error = await failure { try await client.bulkLookup(["8.8.8.8", "1.1.1.1"]) }
        guard case .decodingFailed(let underlying)? = error else { return XCTFail(String(describing: error)) }
        let detail = String(describing: underlying)
        XCTAssertTrue(detail.contains("sent 2 addresses, got more than 2 results"), detail)
    }

    func testAnHTMLErrorPageBecomesItsTitle() async throws {
        let client = client(base("html-error"))
        let error = await failure { try await client.lookup("8.8.8.8") }
        guard case .unexpectedStatus(502, let message)? = error else { return XCTFail(String(describing: error)) }
        XCTAssertEqual(message, "502 Bad Gateway")
    }
}
