// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

extension XCTestCase {
    /// A new empty folder, removed when the test ends.
    func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ipdata-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A file holding `text`, in a temporary folder.
    func makeFile(_ text: String, named name: String = "input.txt") throws -> URL {
        let url = try makeTemporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// What `body` writes to the sink it is given.
    func captureOutput(_ body: (OutputSink) throws -> Void) throws -> String {
        let url = try makeTemporaryDirectory().appendingPathComponent("output")
        let sink = try OutputSink.file(atPath: url.path)
        try body(sink)
        sink.markComplete()
        if let problem = sink.finish() { XCTFail(problem) }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
#endif
