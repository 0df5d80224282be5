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
}
