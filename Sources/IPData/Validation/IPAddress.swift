#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// IPv4 and IPv6 address text, read the way the C library's `inet_pton` reads it.
///
/// IPv4 needs four decimal parts (`8.8.8.8`; no `8.8.8`, no spaces); IPv6 takes any RFC 4291
/// text form, including an embedded IPv4 tail (`::ffff:1.2.3.4`), but no zone (`%eth0`).
enum IPAddress {
    static func isValid(_ text: String) -> Bool {
        canonical(text) != nil
    }

    /// The one text form of an address, or nil for anything that is not one: dotted decimal,
    /// or lower-case compressed IPv6, so `2001:DB8::1` and `2001:db8:0:0:0:0:0:1` are the same.
    static func canonical(_ text: String) -> String? {
        // inet_pton stops at a NUL byte, so a string with one would otherwise pass as its prefix.
        guard !text.isEmpty, text.utf8.count <= 64, !text.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            // Dotted decimal has one form already (inet_pton accepts no other spelling).
            return text
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = withUnsafeBytes(of: &v6) { address in
            inet_ntop(AF_INET6, address.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
