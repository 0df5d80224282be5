import CLILibC
import Foundation
import XCTest

extension XCTestCase {
    /// A new empty folder, mode 0700, removed when the test ends.
    func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ipdata-disk-cache-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// An API answer from the library's fixtures (Tests/IPDataTests/Fixtures/lookup).
    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtureFolder.appendingPathComponent(name))
    }

    static var fixtureFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../../Tests/IPDataTests/Fixtures/lookup"
        ).standardized
    }
}

/// The file's mode bits, or nil when it is not there.
func mode(of path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
}

/// The folder of the package's built programs: on Linux the test runner is an executable in it;
/// on macOS the `.xctest` bundle sits in it.
var builtProductsFolder: URL {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
}
