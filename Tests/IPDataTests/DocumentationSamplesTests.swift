import Foundation
import XCTest

/// The DocC catalogs stay true: each of their Swift samples is compiled, and each test sample run.
///
/// A sample counts as compiled when its lines, without indentation, blank lines and `import`
/// lines, appear one after another in a Swift file of Examples/DocCExamples (the target
/// DocCExamples, built but never run), of Examples/TraitExamples (the same, for the samples that
/// need a package trait, built with it) or of Tests/DocumentationSampleTests (run with the tests).
/// Fragments of a Package.swift, which no target can compile, are the only exception.
final class DocumentationSamplesTests: XCTestCase {
    /// One ```swift block of an article.
    private struct Sample {
        /// The article's file name and the line of the opening fence, such as `Errors.md:11`.
        let location: String
        /// The lines between the fences, without indentation.
        let lines: [String]

        /// The lines that compiled code must show: all but blank lines and imports.
        var code: [String] { lines.filter { !$0.isEmpty && !$0.hasPrefix("import ") } }

        /// Whether the sample is a piece of a user's Package.swift rather than code.
        var isManifestFragment: Bool {
            let manifestStarts = ["dependencies:", ".package(", ".target(", ".testTarget("]
            return code.first.map { line in manifestStarts.contains { line.hasPrefix($0) } } ?? false
        }
    }

    /// The package's root folder.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The catalogs whose articles hold the samples.
    private static let catalogs = [
        "Sources/IPData/IPData.docc", "Sources/IPDataTesting/IPDataTesting.docc",
        "Sources/IPDataAsyncHTTPClient/IPDataAsyncHTTPClient.docc",
    ]

    /// The folders whose Swift files compile the samples.
    /// (Examples/TraitExamples compiles those of IPDataAsyncHTTPClient.docc, in the trait build.)
    private static let compiledFolders = [
        "Examples/DocCExamples", "Tests/DocumentationSampleTests", "Examples/TraitExamples",
    ]

    /// The files under `folder`, at any depth, whose names end in `.extension`, sorted by path.
    private func files(under folder: String, withExtension pathExtension: String) throws -> [URL] {
        let directory = Self.root.appendingPathComponent(folder)
        let enumerator = try XCTUnwrap(
            FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil), "cannot list \(folder)")
        return enumerator.compactMap { $0 as? URL }
            .filter { $0.pathExtension == pathExtension }
            .sorted { $0.path < $1.path }
    }

    /// The ```swift blocks of a Markdown text; blocks fenced for other languages are skipped whole.
    private func samples(in text: String, fileName: String) -> [Sample] {
        var samples: [Sample] = []
        var open: (line: Int, isSwift: Bool, lines: [String])?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let block = open {
                if trimmed == "```" {
                    if block.isSwift {
                        samples.append(Sample(location: "\(fileName):\(block.line)", lines: block.lines))
                    }
                    open = nil
                } else {
                    open?.lines.append(trimmed)
                }
            } else if trimmed.hasPrefix("```") {
                open = (line: index + 1, isSwift: trimmed == "```swift", lines: [])
            }
        }
        return samples
    }

    /// Every Swift sample of every article of the catalogs.
    private func allSamples() throws -> [Sample] {
        try Self.catalogs.flatMap { catalog in
            try files(under: catalog, withExtension: "md").flatMap { article in
                samples(in: try String(contentsOf: article, encoding: .utf8), fileName: article.lastPathComponent)
            }
        }
    }

    func testTheExtractorFindsSwiftBlocksOnly() {
        let text = """
            # Title

            ```json
            {"ip": "8.8.8.8"}
            ```

            - A list item:

              ```swift
              let a = 1

              print(a)
              ```
            """
        let found = samples(in: text, fileName: "Example.md")
        XCTAssertEqual(found.map(\.location), ["Example.md:9"])
        XCTAssertEqual(found.first?.code, ["let a = 1", "print(a)"])
    }

    func testEverySwiftSampleOfTheCatalogsIsCompiled() throws {
        let compiledFiles = try Self.compiledFolders.flatMap { try files(under: $0, withExtension: "swift") }
        let compiled = try compiledFiles.map { file in
            try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        let samples = try allSamples()
        let checked = samples.filter { !$0.isManifestFragment && !$0.code.isEmpty }
        // 40 blocks in all: 2 Package.swift fragments and 1 of imports alone are not looked for.
        XCTAssertGreaterThanOrEqual(samples.count, 40)
        XCTAssertGreaterThanOrEqual(checked.count, 37)
        for sample in checked {
            let code = sample.code
            let found = compiled.contains { lines in lines.indices.contains { lines[$0...].starts(with: code) } }
            XCTAssertTrue(
                found,
                "\(sample.location): sample not in Examples/DocCExamples or Tests/DocumentationSampleTests:\n"
                    + sample.lines.joined(separator: "\n"))
        }
    }
}
