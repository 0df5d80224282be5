import ArgumentParser
import XCTest

@testable import ipdata_cli

/// `--flush-interval SECONDS`: a number of seconds from 0 to 3600, 1 when not given.
final class FlushIntervalOptionsTests: XCTestCase {
    private func seconds(_ arguments: [String]) throws -> Double {
        try FlushIntervalOptions.parse(arguments).seconds()
    }

    func testTheDefaultIsOneSecond() throws {
        XCTAssertEqual(try seconds([]), 1)
    }

    func testFractionsAndZeroAreTaken() throws {
        XCTAssertEqual(try seconds(["--flush-interval", "0.25"]), 0.25)
        XCTAssertEqual(try seconds(["--flush-interval", "0"]), 0)
        XCTAssertEqual(try seconds(["--flush-interval", "3600"]), 3600)
    }

    func testAnythingElseIsAUsageErrorThatSaysWhatIsExpected() {
        for text in ["-1", "3601", "abc", "nan", "inf", " "] {
            XCTAssertThrowsError(try seconds(["--flush-interval=" + text]), text) { error in
                XCTAssertEqual(
                    (error as? UsageError)?.message,
                    "--flush-interval must be a number of seconds from 0 to 3600, such as 0.5", text)
            }
        }
    }
}
