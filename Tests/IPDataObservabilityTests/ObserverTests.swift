#if Observability
import Foundation
import IPData
import IPDataObservability
import IPDataTesting
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Tracing
import XCTest

/// What a user sees of a client's work in logs, metrics and traces, through the libraries' own
/// test backends, with the sandbox of IPDataTesting as the API.
final class ObserverTests: XCTestCase {
    private let key = "secret-key-12345"

    private func client(_ sandbox: IPDataSandbox, observer: any IPDataObserver) -> IPDataClient {
        var configuration = IPDataClient.Configuration(connection: .transport(sandbox), cache: LookupCache())
        configuration.observer = observer
        return IPDataClient(apiKey: key, configuration: configuration)
    }

    func testALoggerGetsALineARequestAndAWarningAFailure() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .debug
        let client = client(IPDataSandbox(), observer: IPDataLoggingObserver(logger: logger))
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookup("8.8.8.8")  // from the cache
        _ = try? await client.lookup("192.168.1.1")  // the API's 400

        let requests = logs.entries.filter { $0.message.description.hasPrefix("ipdata request") }
        XCTAssertEqual(requests.count, 2, "one line a request, none for the cached answer")
        XCTAssertEqual(requests[0].level, .debug)
        XCTAssertEqual(requests[0].metadata["ipdata.endpoint"], "address")
        XCTAssertEqual(requests[0].metadata["http.response.status_code"], "200")
        XCTAssertEqual(requests[0].metadata["ipdata.attempt"], "1")
        XCTAssertNotNil(requests[0].metadata["ipdata.duration_ms"])
        XCTAssertEqual(requests[1].level, .warning)
        XCTAssertEqual(requests[1].metadata["http.response.status_code"], "400")
        let cache = logs.entries.filter { $0.message.description == "ipdata cache read" }
        XCTAssertEqual(cache.map { $0.metadata["ipdata.cache.hits"] }, ["0", "1", "0"])
        XCTAssertFalse(logs.entries.contains { "\($0)".contains(key) }, "the key in a log line")
    }

    func testARequestsLoggerIsUsedInsideTheRequest() async throws {
        let fallback = InMemoryLogHandler()
        let request = InMemoryLogHandler()
        var requestLogger = Logger(label: "request") { _ in request }
        requestLogger.logLevel = .debug
        requestLogger[metadataKey: "request.id"] = "r-42"
        let client = client(
            IPDataSandbox(), observer: IPDataLoggingObserver(logger: Logger(label: "x") { _ in fallback }))
        try await IPDataLoggingObserver.$requestLogger.withValue(requestLogger) {
            _ = try await client.lookup("8.8.8.8")
        }
        XCTAssertTrue(fallback.entries.isEmpty)
        let line = try XCTUnwrap(request.entries.first { $0.message.description == "ipdata request" })
        XCTAssertEqual(line.metadata["request.id"], "r-42", "the request's metadata on the client's lines")
    }

    func testMetricsCountRequestsByStatusCacheReadsAndTimes() async throws {
        let metrics = TestMetrics()
        let client = client(IPDataSandbox(), observer: IPDataMetricsObserver(factory: metrics))
        _ = try await client.lookup("8.8.8.8")
        _ = try await client.lookup("8.8.8.8")
        _ = try? await client.lookup("192.168.1.1")

        let ok = try metrics.expectCounter("ipdata_requests_total", [("endpoint", "address"), ("status", "2xx")])
        XCTAssertEqual(ok.totalValue, 1)
        let refused = try metrics.expectCounter("ipdata_requests_total", [("endpoint", "address"), ("status", "4xx")])
        XCTAssertEqual(refused.totalValue, 1)
        XCTAssertEqual(try metrics.expectCounter("ipdata_cache_hits_total", [("tier", "memory")]).totalValue, 1)
        XCTAssertEqual(try metrics.expectCounter("ipdata_cache_misses_total", [("tier", "memory")]).totalValue, 2)
        let timer = try metrics.expectTimer("ipdata_request_duration_seconds", [("endpoint", "address")])
        XCTAssertEqual(timer.values.count, 2)
    }

    func testASpanACallWithTheRequestAsAChildUnderTheCallersSpan() async throws {
        let tracer = InMemoryTracer()
        let client = client(IPDataSandbox(), observer: IPDataTracingObserver(tracer: tracer))
        let server = tracer.startSpan("GET /checkout", ofKind: .server)
        try await ServiceContext.withValue(server.context) {
            _ = try await client.lookup("8.8.8.8")
        }
        server.end()
        let spans = tracer.finishedSpans
        let call = try XCTUnwrap(spans.first { $0.operationName == "ipdata.address" })
        let request = try XCTUnwrap(spans.first { $0.kind == .client })
        XCTAssertEqual(call.parentSpanID, server.spanID, "the server request's trace goes on")
        XCTAssertEqual(call.traceID, server.traceID)
        XCTAssertEqual(request.parentSpanID, call.spanID)
        XCTAssertEqual(request.operationName, "GET")
        XCTAssertEqual(request.attributes["http.request.method"]?.toSpanAttribute(), "GET")
        XCTAssertEqual(request.attributes["http.response.status_code"]?.toSpanAttribute(), 200)
        guard case .string(let url)? = request.attributes["url.full"]?.toSpanAttribute() else {
            return XCTFail("no url.full")
        }
        XCTAssertTrue(url.contains("8.8.8.8") && !url.contains(key), url)
        XCTAssertTrue(call.events.contains { $0.name == "cache_read" })
    }

    func testAFailedCallsSpansSayWhy() async throws {
        let tracer = InMemoryTracer()
        let client = client(IPDataSandbox(failing: .networkFailure), observer: IPDataTracingObserver(tracer: tracer))
        _ = try? await client.lookup("8.8.8.8")
        let request = try XCTUnwrap(tracer.finishedSpans.first { $0.kind == .client })
        XCTAssertEqual(request.status?.code, .error)
        XCTAssertEqual(request.attributes["error.type"]?.toSpanAttribute(), "URLError.-1009")
        let call = try XCTUnwrap(tracer.finishedSpans.first { $0.operationName == "ipdata.address" })
        XCTAssertEqual(call.errors.count, 1)
        XCTAssertTrue(tracer.activeSpans.isEmpty, "every span ended")
    }

    func testTheObserversCombine() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .debug
        let metrics = TestMetrics()
        let observer = IPDataObserverGroup([
            IPDataLoggingObserver(logger: logger), IPDataMetricsObserver(factory: metrics),
        ])
        _ = try await client(IPDataSandbox(), observer: observer).lookup("8.8.8.8")
        XCTAssertTrue(logs.entries.contains { $0.message.description == "ipdata request" })
        let ok = try metrics.expectCounter("ipdata_requests_total", [("endpoint", "address"), ("status", "2xx")])
        XCTAssertEqual(ok.totalValue, 1)
    }
}
#endif
