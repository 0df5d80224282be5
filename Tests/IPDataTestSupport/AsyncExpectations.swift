import Foundation
import XCTest

#if !canImport(Darwin) && compiler(<5.10)
// Swift 5.9's XCTest on Linux has no async `fulfillment(of:timeout:)`; later versions and Apple
// platforms do. This waits for the expectations on a thread of its own instead.
extension XCTestCase {
    /// Waits for `expectations` without blocking the calling task.
    public func fulfillment(of expectations: [XCTestExpectation], timeout: TimeInterval) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                self.wait(for: expectations, timeout: timeout)
                continuation.resume()
            }
        }
    }
}
#endif
