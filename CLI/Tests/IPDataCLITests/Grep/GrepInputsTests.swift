// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import CLILibC
import Foundation
import XCTest

@testable import ipdata_cli

/// What `ipdata grep` searches: the operands in order, and with `-r` the regular files of each
/// folder in the byte order of their names, no link inside a tree followed.
final class GrepInputsTests: XCTestCase {
    private func inputs(_ operands: [String], recursive: Bool) -> [GrepInputs.Input] {
        var inputs = GrepInputs(operands: operands, recursive: recursive)
        return Array(AnyIterator { inputs.next() })
    }

    func testOperandsAreSearchedAsGivenAndNoneIsStandardInput() {
        XCTAssertEqual(inputs([], recursive: false), [.standardInput])
        XCTAssertEqual(
            inputs(["b.log", "-", "a.log"], recursive: false),
            [.file(path: "b.log", name: "b.log"), .standardInput, .file(path: "a.log", name: "a.log")])
    }

    /// A folder with files, a subfolder, a link to a file and one to a folder, and a FIFO.
    private func makeTree() throws -> URL {
        let root = try makeTemporaryDirectory().appendingPathComponent("tree")
        let fileManager = FileManager.default
        try fileManager.createDirectory(
            at: root.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
        for path in ["b", "B", "a.d", "sub/x", "sub/deeper/y", "é"] {
            try Data("1.2.3.4\n".utf8).write(to: root.appendingPathComponent(path))
        }
        try fileManager.createDirectory(at: root.appendingPathComponent("a"), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("a/z"))
        try fileManager.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: "b")
        try fileManager.createSymbolicLink(
            atPath: root.appendingPathComponent("sub/up").path, withDestinationPath: "..")
        XCTAssertEqual(mkfifo(root.appendingPathComponent("fifo").path, 0o600), 0)
        return root
    }

    func testATreeIsWalkedInTheOrderOfNamesSkippingLinksAndFIFOs() throws {
        let root = try makeTree().path
        let expected = ["B", "a/z", "a.d", "b", "sub/deeper/y", "sub/x", "é"].map {
            GrepInputs.Input.file(path: "\(root)/\($0)", name: "\(root)/\($0)")
        }
        XCTAssertEqual(inputs([root], recursive: true), expected)
        // A trailing slash names the files as without it.
        XCTAssertEqual(inputs([root + "/"], recursive: true), expected)
        // Without -r, a folder is an operand like a file, whose reading fails.
        XCTAssertEqual(inputs([root], recursive: false), [.file(path: root, name: root)])
    }

    func testALinkOnTheCommandLineIsFollowed() throws {
        let root = try makeTree().path
        XCTAssertEqual(
            inputs(["\(root)/sub/up"], recursive: true).first,
            .file(path: "\(root)/sub/up/B", name: "\(root)/sub/up/B"))
        XCTAssertEqual(inputs(["\(root)/link"], recursive: true), [.file(path: "\(root)/link", name: "\(root)/link")])
    }

    /// `ipdata grep -r` with no operand: the working directory's files, named without `./`.
    func testNoOperandUnderRecursiveIsTheWorkingDirectory() throws {
        let root = try makeTree().path
        let fileManager = FileManager.default
        let previous = fileManager.currentDirectoryPath
        XCTAssertTrue(fileManager.changeCurrentDirectoryPath(root + "/sub"))
        defer { _ = fileManager.changeCurrentDirectoryPath(previous) }
        XCTAssertEqual(
            inputs([], recursive: true), [.file(path: "deeper/y", name: "deeper/y"), .file(path: "x", name: "x")])
        XCTAssertTrue(GrepInputs.walksDirectory(operands: [], recursive: true))
    }

    func testNamesArePrintedWhenAFolderIsWalked() throws {
        let root = try makeTree().path
        XCTAssertTrue(GrepInputs.walksDirectory(operands: [root], recursive: true))
        XCTAssertTrue(GrepInputs.walksDirectory(operands: ["\(root)/b", root], recursive: true))
        XCTAssertFalse(GrepInputs.walksDirectory(operands: ["\(root)/b"], recursive: true))
        XCTAssertFalse(GrepInputs.walksDirectory(operands: [root], recursive: false))
        XCTAssertFalse(GrepInputs.walksDirectory(operands: ["-"], recursive: true))
    }
}
#endif
