import Foundation
import XCTest

@testable import IPData

/// README.md stays true: its Swift samples compile and its install snippet names this version.
final class ReadmeTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func readme() throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The ```swift blocks of the README, each as its lines without indentation.
    private func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(trimmed)
            }
        }
        return blocks
    }

    /// Manifest fragments (`dependencies:`, `.target(`, `.testTarget(`) belong in a user's Package.swift.
    private func isManifestFragment(_ block: [String]) -> Bool {
        block.first.map { $0.hasPrefix("dependencies:") || $0.hasPrefix(".target(") || $0.hasPrefix(".testTarget(") }
            ?? false
    }

    func testEverySwiftSampleInTheReadmeIsCompiledInReadmeExamples() throws {
        let examples = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/ReadmeExamples/ReadmeExamples.swift"),
            encoding: .utf8
        ).components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = swiftBlocks(in: try readme()).filter { !isManifestFragment($0) }
        XCTAssertGreaterThanOrEqual(blocks.count, 12)
        for block in blocks {
            let code = block.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
            let found = examples.indices.contains { start in
                examples[start...].filter { !$0.isEmpty }.starts(with: code)
            }
            XCTAssertTrue(found, "README sample not in ReadmeExamples.swift:\n" + block.joined(separator: "\n"))
        }
    }

    func testTheInstallSnippetNamesThisVersion() throws {
        let pattern = try NSRegularExpression(pattern: #"from: "([^"]*)""#)
        let text = try readme()
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        XCTAssertEqual(matches.count, 1, "exactly one `from:` version in README.md")
        let version = try XCTUnwrap(matches.first.flatMap { Range($0.range(at: 1), in: text) }.map { text[$0] })
        XCTAssertEqual(String(version), IPDataClient.sdkVersion)
    }
}
