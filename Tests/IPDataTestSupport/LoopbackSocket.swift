import Foundation
import IPDataLibC

/// Plain POSIX sockets on 127.0.0.1.
public enum LoopbackSocket {
    /// A socket call that failed, and its errno.
    public struct Failure: Error, CustomStringConvertible {
        /// The call, and its errno.
        public let description: String
    }

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func streamSocket() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// A listening socket on a port the system chose, and that port.
    public static func openListener() throws -> (Int32, Int) {
        let descriptor = streamSocket()
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 64) == 0 else {
            throw Failure(description: "cannot listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing listens on now (one the system just handed out and took back).
    public static func freePort() throws -> Int {
        let (descriptor, port) = try openListener()
        close(descriptor)
        return port
    }

    /// Whether something accepts connections on `port`.
    public static func accepts(port: Int) -> Bool {
        let descriptor = streamSocket()
        defer { close(descriptor) }
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
