#if Valkey
@testable import IPDataValkey
import XCTest

/// When the store gives up on its server: on evidence, never on one slow operation.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class StoreHealthTests: XCTestCase {
    private let start = ContinuousClock.now
    private let timeout = OperationFailure.timedOut(.milliseconds(250))

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start + .milliseconds(milliseconds)
    }

    func testTimeoutsAloneForLessThanASecondAreMissesOnly() {
        let health = StoreHealth(retryInterval: .seconds(1))
        for milliseconds in stride(from: 0, through: 990, by: 10) {
            XCTAssertFalse(health.failed(timeout, now: at(milliseconds)), "\(milliseconds) ms")
            XCTAssertTrue(health.mayTry(now: at(milliseconds)))
        }
        XCTAssertTrue(health.failed(timeout, now: at(1_000)), "a second of nothing but timeouts")
        XCTAssertFalse(health.mayTry(now: at(1_010)))
        XCTAssertTrue(health.mayTry(now: at(2_000)), "one attempt a retry interval")
    }

    func testASuccessStartsTheCountAgain() {
        let health = StoreHealth(retryInterval: .seconds(1))
        for second in 0..<5 {
            _ = health.failed(timeout, now: at(second * 1_000))
            _ = health.failed(timeout, now: at(second * 1_000 + 500))
            XCTAssertFalse(health.failed(timeout, now: at(second * 1_000 + 900)))
            XCTAssertFalse(health.succeeded(), "never down")
        }
        XCTAssertTrue(health.mayTry(now: at(5_000)))
    }

    func testTwoTimeoutsASecondApartAreNotEnough() {
        let health = StoreHealth(retryInterval: .seconds(1))
        XCTAssertFalse(health.failed(timeout, now: at(0)))
        XCTAssertFalse(health.failed(timeout, now: at(5_000)), "two timeouts are not three")
        XCTAssertTrue(health.failed(timeout, now: at(5_001)))
    }

    func testAFailedOperationIsEvidenceAtOnce() {
        let health = StoreHealth(retryInterval: .seconds(1))
        XCTAssertTrue(health.failed(.failed("Connection refused"), now: at(0)))
        XCTAssertFalse(health.failed(.failed("Connection refused"), now: at(10)), "reported once")
        XCTAssertFalse(health.mayTry(now: at(500)))
        XCTAssertTrue(health.mayTry(now: at(1_010)))
        XCTAssertTrue(health.succeeded(), "back")
        XCTAssertFalse(health.succeeded())
    }
}
#endif
