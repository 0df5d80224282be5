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

    /// The ```swift blocks of the README, each as its lines without indentation; with
    /// `notCompiled`, only those fenced ```swift not-compiled instead.
    private func swiftBlocks(in text: String, notCompiled: Bool = false) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == (notCompiled ? "```swift not-compiled" : "```swift") {
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

    /// The lines of the files that compile the README's samples, without indentation:
    /// ReadmeExamples, and TraitExamples for those that need a package trait (built with it).
    private func compiledLines() throws -> [String] {
        let traitExamples = Self.root.appendingPathComponent("Examples/TraitExamples")
        let files =
            [Self.root.appendingPathComponent("Examples/ReadmeExamples/ReadmeExamples.swift")]
            + (try FileManager.default.contentsOfDirectory(at: traitExamples, includingPropertiesForKeys: nil))
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
        return try files.flatMap { file in
            try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Manifest fragments (`dependencies:`, `.target(`, `.testTarget(`) belong in a user's Package.swift.
    private func isManifestFragment(_ block: [String]) -> Bool {
        block.first.map { $0.hasPrefix("dependencies:") || $0.hasPrefix(".target(") || $0.hasPrefix(".testTarget(") }
            ?? false
    }

    func testEverySwiftSampleInTheReadmeIsCompiledInReadmeExamples() throws {
        let examples = try compiledLines()
        let blocks = swiftBlocks(in: try readme()).filter { !isManifestFragment($0) }
        XCTAssertGreaterThanOrEqual(blocks.count, 14)
        for block in blocks {
            let code = block.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
            let found = examples.indices.contains { start in
                examples[start...].filter { !$0.isEmpty }.starts(with: code)
            }
            XCTAssertTrue(
                found, "README sample not in ReadmeExamples or TraitExamples:\n" + block.joined(separator: "\n"))
        }
    }

    /// The samples CI cannot compile are Vapor's (the app and the middleware recipe): no other
    /// may be marked `not-compiled`.
    func testOnlyTheVaporSamplesAreNotCompiled() throws {
        let blocks = swiftBlocks(in: try readme(), notCompiled: true)
        XCTAssertEqual(blocks.count, 2)
        for block in blocks {
            XCTAssertTrue(block.contains("import Vapor"), block.joined(separator: "\n"))
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
