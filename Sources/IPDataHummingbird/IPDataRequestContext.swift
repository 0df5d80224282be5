#if Hummingbird
import Hummingbird
import IPData

/// A request context that carries what `IPDataMiddleware` learnt of the request's client.
///
/// ```swift
/// struct AppContext: IPDataRequestContext, RemoteAddressRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var remoteAddress: SocketAddress?
///     var ipData: IPDataClientInfo?
///
///     init(source: ApplicationRequestContextSource) {
///         coreContext = .init(source: source)
///         remoteAddress = source.channel.remoteAddress
///     }
/// }
/// ```
@available(macOS 14, iOS 17, tvOS 17, *)
public protocol IPDataRequestContext: RequestContext {
    /// Set by `IPDataMiddleware` before the request goes on; nil until then.
    var ipData: IPDataClientInfo? { get set }
}
#endif
