import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request of an observed call, as the observer is told of it.
struct ObservedRequest: Sendable {
    let observer: any IPDataObserver
    let request: IPDataRequest

    /// The `attempt`th request of `watch`'s call, `request` to `endpoint`, its URL without the key.
    init(_ watch: ObservedCall, _ request: URLRequest, _ endpoint: Endpoint, attempt: Int, redaction: KeyRedaction) {
        self.observer = watch.observer
        let url = request.url.map { redaction.redact($0) } ?? IPDataClient.defaultBaseURL
        self.request = IPDataRequest(
            call: watch.call, attempt: attempt, method: request.httpMethod ?? "GET", url: url,
            addressCount: endpoint.addressCount)
    }

    func started() {
        observer.requestStarted(request)
    }

    func ended(_ outcome: IPDataRequestOutcome) {
        observer.requestEnded(request, outcome: outcome)
    }
}
