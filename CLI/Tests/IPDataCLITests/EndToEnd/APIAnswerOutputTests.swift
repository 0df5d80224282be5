// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON output is what the API sent: its keys in its order, its nulls, its numbers and strings as
/// written, and fields the SDK does not model; not the SDK's model encoded again. Only the
/// whitespace between tokens is the tool's: none in JSON lines, two spaces a level in JSON.
final class APIAnswerOutputTests: CommandLineTestCase {
    /// The test server answers a lookup of this address with this fixture's bytes, as they are.
    private let address = "76.14.47.42"
    private var fixture: Data {
        get throws {
            // The root package's fixture, which TestServer/ serves: five folders up from this file.
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<5 { root.deleteLastPathComponent() }
            let path = "Tests/IPDataTests/Fixtures/lookup/76.14.47.42.go-sdk-2019.json"
            return try Data(contentsOf: root.appendingPathComponent(path))
        }
    }

    func testALookupPrintsTheAPIsAnswerTokenForToken() throws {
        let run = try ipdata([address] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(RawJSON.compacted(Data(run.stdout.utf8)), RawJSON.compacted(try fixture))
        XCTAssertEqual(Data(run.stdout.utf8), RawJSON.prettyPrinted(try fixture) + Data("\n".utf8))
        XCTAssertTrue(run.stdout.contains("\n  \"organisation\": "), "a field the SDK does not model is kept")
    }

    func testJSONLinesAreTheAPIsObjectsEachOnOneLine() throws {
        // A free plan looks the addresses up one by one: each answer is the fixture's bytes, which
        // span many lines; the record keeps them, without the line breaks and indentation.
        let run = try ipdata([address, "8.8.8.8"] + base, key: .given(server["IPDATA_TEST_FREE_KEY"] ?? "free-key"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines.count, 2)
        let line = run.stdoutLines[0]
        XCTAssertEqual(try JSONParser.parse(Data(line.utf8)), try JSONParser.parse(try fixture), "the same values")
        let order = ["\"ip\"", "\"city\"", "\"region\"", "\"country_name\"", "\"organisation\""].map {
            line.range(of: $0)?.lowerBound
        }
        XCTAssertTrue(order.allSatisfy { $0 != nil })
        XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), "the API's order, not sorted")
    }

    func testEachBulkRecordIsItsElementOfTheAPIsAnswer() async throws {
        // The answer the server gives a bulk request, asked for directly: an array of two objects.
        let backend = try XCTUnwrap(URL(string: (server["IPDATA_TEST_URL_BACKEND"] ?? "") + "/bulk?api-key=\(key)"))
        var request = URLRequest(url: backend)
        request.httpMethod = "POST"
        request.httpBody = Data(#"["8.8.8.8","1.1.1.1"]"#.utf8)
        let (body, _) = try await URLSession.shared.data(for: request)
        guard case .array(let elements) = try JSONParser.parse(body) else { return XCTFail("not an array") }
        XCTAssertEqual(elements.count, 2)

        let run = try ipdata(["bulk"] + base, stdin: "8.8.8.8\n1.1.1.1\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines.count, 2)
        // The records, one a line, are the array's elements as the API wrote them, whitespace aside.
        XCTAssertEqual(
            Data(("[" + run.stdoutLines.joined(separator: ",") + "]").utf8), RawJSON.compacted(body),
            "each record is its element of the API's answer, byte for byte")
        XCTAssertTrue(run.stdout.contains("\"count\":\""), "a count the API sends as a string stays one")
        XCTAssertFalse(run.stdout.contains("is_anycast"), "no field the API did not send")
    }

    func testAnAddressLeftOutByTheFieldsIsAddedFirst() throws {
        let run = try ipdata(["bulk", "-f", "country_code"] + base, stdin: "8.8.8.8\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "{\"ip\":\"8.8.8.8\",\"country_code\":\"US\"}\n")
    }

    func testAJSONArrayIsTheAPIsObjectsInOrder() throws {
        let run = try ipdata(["bulk", "--format", "json"] + base, stdin: "8.8.8.8\n10.0.0.1\n1.1.1.1\n")
        XCTAssertEqual(run.status, 1, run.stderr)
        guard case .array(let records) = try JSONParser.parse(Data(run.stdout.utf8)) else {
            return XCTFail(run.stdout)
        }
        XCTAssertEqual(records.count, 3)
        XCTAssertTrue(run.stdout.hasPrefix("[\n  {\n    \"ip\": \"8.8.8.8\",\n    \"is_eu\": false,\n"), run.stdout)
    }
}
#endif
