import Foundation

/// The origin of a URL (RFC 6454): its scheme, host and port, with the scheme's default port
/// filled in, so that `https://api.ipdata.co` and `https://API.ipdata.co:443/x` are one origin.
struct Origin: Equatable, Sendable {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL?) {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = ["https": 443, "http": 80][scheme]
        guard let port = url.port ?? defaultPort else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `scheme://host:port`, the way it is shown in messages.
    var text: String {
        let host = self.host.contains(":") && !self.host.hasPrefix("[") ? "[\(self.host)]" : self.host
        return "\(scheme)://\(host):\(port)"
    }
}
