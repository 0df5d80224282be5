import Foundation
import XCTest

@testable import IPData

/// README.md names this version in its install snippet, where the release tooling reads it.
/// (Its Swift samples are type-checked as printed by scripts/check-samples.sh.)
final class ReadmeTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheInstallSnippetNamesThisVersion() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"from: "([^"]*)""#)
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        XCTAssertEqual(matches.count, 1, "exactly one `from:` version in README.md")
        let version = try XCTUnwrap(matches.first.flatMap { Range($0.range(at: 1), in: text) }.map { text[$0] })
        XCTAssertEqual(String(version), IPDataClient.sdkVersion)
    }
}
