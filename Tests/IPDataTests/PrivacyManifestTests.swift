import Foundation
import XCTest

/// `Sources/IPData/PrivacyInfo.xcprivacy`, the privacy manifest Apple expects of a third-party SDK:
/// a well-formed property list that declares no tracking, no tracking domains, no collected data
/// and no required-reason API, and a library that indeed calls none of those APIs.
final class PrivacyManifestTests: XCTestCase {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/IPData")

    private func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: Self.sources.appendingPathComponent("PrivacyInfo.xcprivacy"))
        var format = PropertyListSerialization.PropertyListFormat.binary
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        XCTAssertEqual(format, .xml, "Xcode reads either form; the repository keeps the readable one")
        return try XCTUnwrap(plist as? [String: Any], "the manifest's root is a dictionary")
    }

    func testTheManifestDeclaresNoTrackingAndNoCollectedData() throws {
        let manifest = try manifest()
        let keys = [
            "NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes",
        ]
        XCTAssertEqual(Set(manifest.keys), Set(keys))
        XCTAssertEqual(manifest["NSPrivacyTracking"] as? Bool, false)
        XCTAssertEqual((manifest["NSPrivacyTrackingDomains"] as? [Any])?.count, 0)
        XCTAssertEqual((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.count, 0)
        XCTAssertEqual((manifest["NSPrivacyAccessedAPITypes"] as? [Any])?.count, 0)
    }

    /// The manifest declares no required-reason API, so the library must call none. A call added
    /// later fails here until the manifest declares it with its reason.
    func testTheLibraryCallsNoRequiredReasonAPI() throws {
        // Apple's list of APIs that need a declared reason (file timestamps, system boot time,
        // disk space, active keyboards, user defaults), by the names Swift code calls them.
        let requiredReasonAPIs = [
            "creationDate", "modificationDate", "contentModificationDate", "creationDateKey",
            "contentModificationDateKey", "fileModificationDate", "attributesOfItem", "getattrlist", "fstat(",
            "lstat(", "stat(", "systemUptime", "mach_absolute_time", "volumeAvailableCapacity", "statfs",
            "statvfs", "systemFreeSize", "systemSize", "activeInputModes", "UserDefaults", "NSUserDefaults",
        ]
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: Self.sources.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 20, "the library's sources were found")
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for api in requiredReasonAPIs where text.contains(api) {
                XCTFail("\(file) uses \(api): declare it in PrivacyInfo.xcprivacy with its reason")
            }
        }
    }
}
