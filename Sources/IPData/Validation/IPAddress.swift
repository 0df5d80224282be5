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
        // inet_pton stops at a NUL byte, so a string with one would otherwise pass as its prefix.
        guard !text.isEmpty, text.utf8.count <= 64, !text.utf8.contains(0) else { return false }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return true }
        var v6 = in6_addr()
        return inet_pton(AF_INET6, text, &v6) == 1
    }
}
