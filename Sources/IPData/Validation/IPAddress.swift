#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv4 or IPv6 address, parsed the way the C library's `inet_pton` does.
///
/// IPv4 needs four decimal parts (`8.8.8.8`; no `8.8.8`, no octal, no spaces); IPv6 takes any
/// RFC 4291 text form, including an embedded IPv4 tail (`::ffff:1.2.3.4`), but no zone (`%eth0`).
struct IPAddress: Hashable, Sendable {
    enum Family: Sendable { case v4, v6 }

    let family: Family
    /// The canonical text: dotted decimal, or lower-case compressed IPv6 (`2001:db8::1`), so
    /// that every spelling of one address has one form.
    let canonical: String

    init?(_ text: String) {
        // inet_pton stops at a NUL byte, so a string with one would otherwise parse as its prefix.
        guard !text.isEmpty, text.utf8.count <= 64, !text.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            family = .v4
            canonical = withUnsafeBytes(of: &v4) {
                Self.text(family: AF_INET, address: $0, length: Int(INET_ADDRSTRLEN))
            }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            family = .v6
            canonical = withUnsafeBytes(of: &v6) {
                Self.text(family: AF_INET6, address: $0, length: Int(INET6_ADDRSTRLEN))
            }
            return
        }
        return nil
    }

    private static func text(family: Int32, address: UnsafeRawBufferPointer, length: Int) -> String {
        var buffer = [CChar](repeating: 0, count: length)
        guard inet_ntop(family, address.baseAddress, &buffer, socklen_t(length)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
