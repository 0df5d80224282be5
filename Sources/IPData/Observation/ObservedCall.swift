import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A call that an `IPDataObserver` watches: what the client tells it of the call's cache reads,
/// requests, waits and shared lookups, each with the call it belongs to.
struct ObservedCall: Sendable {
    let observer: any IPDataObserver
    let call: IPDataCall

    /// `body` as one call of `endpoint`, told to `observer` as it starts and ends; without an
    /// observer, `body` alone, with no call made.
    static func run<Value>(
        _ observer: (any IPDataObserver)?, _ endpoint: IPDataCall.Endpoint, addresses: Int, clock: RetryClock,
        _ body: (ObservedCall?) async throws -> Value
    ) async throws -> Value {
        guard let observer else { return try await body(nil) }
        let watch = ObservedCall(observer: observer, call: .next(endpoint, addressCount: addresses))
        observer.callStarted(watch.call)
        let start = clock.now()
        do {
            let value = try await body(watch)
            observer.callEnded(watch.call, error: nil, duration: max(0, clock.now() - start))
            return value
        } catch {
            let failure = error as? IPDataError ?? .networkError(error)
            observer.callEnded(watch.call, error: failure, duration: max(0, clock.now() - start))
            throw error
        }
    }

    func cacheRead(_ tier: IPDataCacheRead.Tier, hits: Int, of count: Int) {
        observer.cacheRead(IPDataCacheRead(call: call, tier: tier, hits: hits, misses: count - hits))
    }

    func retryWait(attempt: Int, seconds: TimeInterval, reason: IPDataRetryWait.Reason) {
        observer.retryWaitStarted(IPDataRetryWait(call: call, attempt: attempt, seconds: seconds, reason: reason))
    }

    /// Tells the observer that the call shared another's lookup.
    var coalesced: @Sendable () -> Void {
        { [observer, call] in observer.callCoalesced(call) }
    }
}
