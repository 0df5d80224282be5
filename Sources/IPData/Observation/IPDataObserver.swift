import Foundation

/// Watches what an `IPDataClient` does, for logs, metrics and traces: each call, each HTTP
/// request it sends and how that ended, each wait before a retry, each read of the cache and of
/// the store behind it, and each call that shared another's request. Give a client one with
/// `IPDataClient.Configuration.observer`.
///
/// Every method has an empty default implementation: implement the ones you need. A call is
/// reported as `callStarted(_:)`, then its cache reads, requests and waits, each carrying the
/// call (`IPDataCall.id` ties them together: a tracer makes a span per call, with a child span
/// per request), then `callEnded(_:error:duration:)`.
///
/// The methods are called synchronously in the task that made the call, so task-local values
/// (a tracing context, a logger of your own) are the caller's. The exception is a lookup stream
/// (`IPDataClient.lookupStream(_:fields:options:)`), whose lookups run in tasks of the stream's
/// own, made in the task that iterates it: they inherit its task-local values. Return quickly and
/// never block: the call waits for each method.
///
/// No API key appears in anything an observer is told: URLs carry `REDACTED` in its place, and
/// errors are the client's, which never carry it.
public protocol IPDataObserver: Sendable {
    /// A call begins: one method of the client, or one lookup of a stream (a bulk request's
    /// worth of addresses, or one address).
    func callStarted(_ call: IPDataCall)

    /// A call ends, `duration` seconds after it began, with the error it throws (nil when it
    /// returns). A cached answer or a shared request ends a call as well as a request of its own.
    func callEnded(_ call: IPDataCall, error: IPDataError?, duration: TimeInterval)

    /// A request goes out: the first attempt of a call or a retry (`IPDataRequest.attempt`).
    func requestStarted(_ request: IPDataRequest)

    /// A request ends, with an answer (its status) or a failure.
    func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome)

    /// The call waits before its next attempt: a retry, or the client's hold after a 429.
    func retryWaitStarted(_ wait: IPDataRetryWait)

    /// The call read the client's cache or its store: how many addresses were found, how many not.
    func cacheRead(_ read: IPDataCacheRead)

    /// The call shared the lookup of a concurrent call for the same address and fields, and sent
    /// no request of its own.
    func callCoalesced(_ call: IPDataCall)
}

extension IPDataObserver {
    /// Does nothing.
    public func callStarted(_ call: IPDataCall) {}
    /// Does nothing.
    public func callEnded(_ call: IPDataCall, error: IPDataError?, duration: TimeInterval) {}
    /// Does nothing.
    public func requestStarted(_ request: IPDataRequest) {}
    /// Does nothing.
    public func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {}
    /// Does nothing.
    public func retryWaitStarted(_ wait: IPDataRetryWait) {}
    /// Does nothing.
    public func cacheRead(_ read: IPDataCacheRead) {}
    /// Does nothing.
    public func callCoalesced(_ call: IPDataCall) {}
}
