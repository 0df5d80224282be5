import Foundation
import XCTest

@testable import IPData

/// Counting a bulk answer's results before decoding it.
final class JSONArrayScanTests: XCTestCase {
    private func count(_ text: String, limit: Int = 100) -> Int? {
        JSONArrayScan.elementCount(of: Data(text.utf8), limit: limit)
    }

    func testElementsAreCountedAtTheTopLevelOnly() {
        XCTAssertEqual(count("[]"), 0)
        XCTAssertEqual(count(" [ ] "), 0)
        XCTAssertEqual(count(#"[{"ip":"8.8.8.8"}]"#), 1)
        XCTAssertEqual(count(#"[{"a":[1,2,{"b":"x,y"}]},{"message":"a \"quoted, comma\" ]"}]"#), 2)
        XCTAssertEqual(count(#"[1, "two", [3, 4], {"five": 5}, null]"#), 5)
        XCTAssertEqual(count("{}"), nil, "not an array")
        XCTAssertEqual(count(""), nil)
    }

    func testCountingStopsPastTheLimit() {
        let million = "[" + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]"
        XCTAssertEqual(count(million, limit: 2), 3)
    }

    func testElementRangesAreEachElementWithoutTheWhitespaceAround() {
        let body = Data(#" [ {"a": [1, {"b": "],}"}]} ,"x\"y", 3 ,null,[ ] ] "#.utf8)
        let ranges = JSONArrayScan.elementRanges(of: body)
        XCTAssertEqual(
            ranges?.map { String(decoding: body[$0], as: UTF8.self) },
            [#"{"a": [1, {"b": "],}"}]}"#, #""x\"y""#, "3", "null", "[ ]"])
        XCTAssertEqual(JSONArrayScan.elementRanges(of: Data("[]".utf8)), [])
        XCTAssertNil(JSONArrayScan.elementRanges(of: Data(#"{"a": 1}"#.utf8)), "not an array")
        XCTAssertNil(JSONArrayScan.elementRanges(of: Data("[1, 2".utf8)), "cut short")
    }
}
