import Foundation

/// How a client waits between two attempts, reads the time and draws a jittered wait: the
/// system's, or a test's that records the waits instead of sleeping.
struct RetryClock: Sendable {
    /// Seconds on a clock that only moves forward (its origin means nothing).
    let now: @Sendable () -> TimeInterval
    /// Waits; throws when the calling task is cancelled.
    let sleep: @Sendable (TimeInterval) async throws -> Void
    /// A wait drawn from a range.
    let random: @Sendable (ClosedRange<TimeInterval>) -> TimeInterval

    static let system = RetryClock(
        now: { TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000 },
        sleep: { seconds in
            try Task.checkCancellation()
            if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) }
        },
        random: { range in range.upperBound > range.lowerBound ? TimeInterval.random(in: range) : range.lowerBound })
}
