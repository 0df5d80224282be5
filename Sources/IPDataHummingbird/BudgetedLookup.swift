#if Hummingbird
import IPData

/// The lookups a middleware has started and that have not ended yet, at most `limit`. Past its
/// budget a lookup goes on in the background to fill the cache; the bound keeps an outage (every
/// lookup waiting for its timeout) from piling up tasks without end.
actor PendingLookups {
    /// The most lookups at once.
    let limit: Int
    /// The lookups started and not ended.
    private(set) var count = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts one more lookup, or says false when `limit` are pending already.
    func start() -> Bool {
        guard count < limit else { return false }
        count += 1
        return true
    }

    /// Counts a lookup that ended.
    func end() {
        count -= 1
    }
}

/// The first of two events, a lookup's result or the end of the budget: resumes its continuation
/// once, with the result or with nil.
private actor FirstOfTwo {
    private var continuation: CheckedContinuation<Result<IPResponse, any Error>?, Never>?

    init(_ continuation: CheckedContinuation<Result<IPResponse, any Error>?, Never>) {
        self.continuation = continuation
    }

    func finish(_ result: Result<IPResponse, any Error>?) {
        continuation?.resume(returning: result)
        continuation = nil
    }
}

/// The result of `lookup` if it ends within `budget`, else nil at the budget's end, while the
/// lookup goes on. Awaiting a task's result ignores the caller's cancellation, so the race is a
/// continuation that the first of the two resumes, not a task group (which would wait for both).
@available(macOS 14, iOS 17, tvOS 17, *)
func result(
    of lookup: Task<IPResponse, any Error>, within budget: Duration
) async -> Result<IPResponse, any Error>? {
    await withCheckedContinuation { continuation in
        let race = FirstOfTwo(continuation)
        let timer = Task {
            try? await Task.sleep(for: budget)
            await race.finish(nil)
        }
        Task {
            let result = await lookup.result
            timer.cancel()
            await race.finish(result)
        }
    }
}
#endif
