import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What URLSession does differently on Linux (swift-corelibs-foundation on libcurl) and how the
/// client copes: the owned sessions' configuration and delegate queue, and the `Expect` header.
/// The other platform differences are where they act: the data-task wrapper in `DataTaskCall`,
/// the challenge refusal in `RequestDelegate`, and how a request's delegate is attached in
/// `URLSessionTransport`.
enum URLSessionQuirks {
    /// The configuration of a session the client creates: a copy of `configuration` (the
    /// caller's object is left alone), without a `URLCache`, on every platform.
    ///
    /// Every request URL carries the API key (`?api-key=…`): a cache would keep it, with the
    /// answers, in its store (on disk, for `URLCache.shared` on Apple platforms), and could answer
    /// a lookup with stale threat data. On Linux there is a second reason: a session with a
    /// `URLCache` looks each data task up in the cache on another queue before it starts, and a
    /// task cancelled while its answer arrives can then be failed after URLSession has forgotten
    /// it, which stops the process ("Trying to access a behaviour for a task that in not in the
    /// registry"). `LookupCache` is the client's own cache, keyed without the key.
    static func ownedSessionConfiguration(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        // `copy()` of a URLSessionConfiguration is always a URLSessionConfiguration.
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        copy.urlCache = nil
        return copy
    }

    /// The delegate queue of a session the client creates: on Linux one that runs each delegate
    /// call in place (see `ImmediateDelegateQueue`), so that a fast endless body cannot pile up
    /// ahead of the delegate that stops it; elsewhere URLSession's own serial queue.
    static func ownedSessionDelegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
        return ImmediateDelegateQueue()
        #else
        return nil
        #endif
    }

    /// Adjusts a request that carries a body (`POST /bulk`).
    ///
    /// On Linux, when a pooled keep-alive connection dies after a request was written, libcurl
    /// silently resends the request on a new connection, but without the body of a POST: the
    /// call then hangs until the request timeout. With `Expect: 100-continue` the body is held
    /// back until the server agrees to read it, so libcurl's resend carries the whole body
    /// (the integration tests run the race).
    static func prepareBodyRequest(_ request: inout URLRequest) {
        #if canImport(FoundationNetworking)
        request.setValue("100-continue", forHTTPHeaderField: "Expect")
        #endif
    }
}
