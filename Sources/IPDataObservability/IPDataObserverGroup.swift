#if Observability
import Foundation
import IPData

/// Several observers as one, told in order: a client takes one observer, and logs, metrics and
/// traces are three.
///
/// ```swift
/// configuration.observer = IPDataObserverGroup([
///     IPDataLoggingObserver(logger: logger), IPDataMetricsObserver(), IPDataTracingObserver(),
/// ])
/// ```
public struct IPDataObserverGroup: IPDataObserver {
    /// The observers, told in this order.
    public let observers: [any IPDataObserver]

    /// A group of `observers`.
    public init(_ observers: [any IPDataObserver]) {
        self.observers = observers
    }

    /// Tells each observer.
    public func callStarted(_ call: IPDataCall) { for observer in observers { observer.callStarted(call) } }

    /// Tells each observer, the last-started first, so that spans end inside out.
    public func callEnded(_ call: IPDataCall, error: IPDataError?, duration: TimeInterval) {
        for observer in observers.reversed() { observer.callEnded(call, error: error, duration: duration) }
    }

    /// Tells each observer.
    public func requestStarted(_ request: IPDataRequest) {
        for observer in observers { observer.requestStarted(request) }
    }

    /// Tells each observer.
    public func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
        for observer in observers.reversed() { observer.requestEnded(request, outcome: outcome) }
    }

    /// Tells each observer.
    public func retryWaitStarted(_ wait: IPDataRetryWait) {
        for observer in observers { observer.retryWaitStarted(wait) }
    }

    /// Tells each observer.
    public func cacheRead(_ read: IPDataCacheRead) { for observer in observers { observer.cacheRead(read) } }

    /// Tells each observer.
    public func callCoalesced(_ call: IPDataCall) { for observer in observers { observer.callCoalesced(call) } }
}
#endif
