#if Observability
import CoreMetrics
import Foundation
import IPData

/// Counts what a client does in swift-metrics, by endpoint kind (`address`, `bulk`, `asn`, …):
///
/// | metric | dimensions |
/// |---|---|
/// | `ipdata_requests_total` (counter) | `endpoint`, `status`: `2xx`, `4xx`, `5xx`, … or `failed` |
/// | `ipdata_request_duration_seconds` (timer) | `endpoint` |
/// | `ipdata_retries_total` (counter) | `endpoint` |
/// | `ipdata_cache_hits_total`, `ipdata_cache_misses_total` (counters, by address) | `tier`: `memory`, `store` |
/// | `ipdata_coalesced_calls_total` (counter) | `endpoint` |
///
/// ```swift
/// var configuration = IPDataClient.Configuration()
/// configuration.observer = IPDataMetricsObserver()
/// ```
public struct IPDataMetricsObserver: IPDataObserver {
    private let factory: any MetricsFactory

    /// An observer that makes its metrics with `factory`: the bootstrapped system's by default.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// Counts the request by its status class, and times it.
    public func requestEnded(_ request: IPDataRequest, outcome: IPDataRequestOutcome) {
        let endpoint = ("endpoint", request.call.endpoint.name)
        let status = outcome.statusCode.map { "\($0 / 100)xx" } ?? "failed"
        Counter(label: "ipdata_requests_total", dimensions: [endpoint, ("status", status)], factory: factory)
            .increment()
        CoreMetrics.Timer(label: "ipdata_request_duration_seconds", dimensions: [endpoint], factory: factory)
            .recordNanoseconds(Int64((outcome.duration * 1e9).rounded()))
    }

    /// Counts the retry.
    public func retryWaitStarted(_ wait: IPDataRetryWait) {
        Counter(label: "ipdata_retries_total", dimensions: [("endpoint", wait.call.endpoint.name)], factory: factory)
            .increment()
    }

    /// Counts the hits and misses of the read.
    public func cacheRead(_ read: IPDataCacheRead) {
        let tier = [("tier", read.tier.rawValue)]
        if read.hits > 0 {
            Counter(label: "ipdata_cache_hits_total", dimensions: tier, factory: factory).increment(by: read.hits)
        }
        if read.misses > 0 {
            Counter(label: "ipdata_cache_misses_total", dimensions: tier, factory: factory).increment(by: read.misses)
        }
    }

    /// Counts the shared call.
    public func callCoalesced(_ call: IPDataCall) {
        Counter(
            label: "ipdata_coalesced_calls_total", dimensions: [("endpoint", call.endpoint.name)], factory: factory
        ).increment()
    }
}
#endif
