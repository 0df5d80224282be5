import CLILibC
import Dispatch
import IPData

/// Resolves host names through the system resolver (`getaddrinfo`: /etc/hosts, DNS, whatever
/// the system is set up to ask), A and AAAA in one call, for a run of the CLI.
///
/// Each name is resolved once a run: its answer (or its failure) is kept, so a log with thousands
/// of lines of one host costs one resolution. At most `concurrency` resolutions run at once, on
/// threads of their own, since `getaddrinfo` blocks. The addresses keep the resolver's order
/// (on glibc, RFC 6724's, as /etc/gai.conf sets it), each once, in canonical form.
final class HostResolver: Sendable {
    /// What a name resolved to.
    enum Resolution: Sendable, Equatable {
        /// Its addresses, at least one, in the resolver's order.
        case addresses([String])
        /// The one-line message of an error record: `NAME: the name does not resolve (REASON)`.
        case failed(String)
    }

    /// How many names are resolved at once, at most.
    static let concurrency = 4

    /// The answers of the run, by name (lowercased, without a final dot), as tasks, so that a
    /// name asked for again while it resolves waits for the same answer.
    private let answers = Locked<[String: Task<Resolution, Never>]>([:])
    private let slots = DispatchSemaphore(value: HostResolver.concurrency)
    private let queue = DispatchQueue(label: "ipdata.resolver", attributes: .concurrent)
    /// How many calls of the system resolver the run made (one a distinct name).
    var resolutions: Int { answers.withLock { $0.count } }

    /// Starts resolving `name`, unless it is resolving or resolved already: for reading ahead.
    func prefetch(_ name: String) {
        _ = task(for: name)
    }

    /// The addresses of `name`, or why it has none.
    func resolve(_ name: String) async -> Resolution {
        await task(for: name).value
    }

    private func task(for name: String) -> Task<Resolution, Never> {
        var key = name.lowercased()
        if key.hasSuffix(".") { key.removeLast() }
        return answers.withLock { answers in
            if let task = answers[key] { return task }
            // Without its final dot: the hosts file holds names without one, and this answer is
            // every spelling's.
            let task = Task { await self.lookUp(name.hasSuffix(".") ? String(name.dropLast()) : name) }
            answers[key] = task
            return task
        }
    }

    /// One call of `getaddrinfo`, on a thread of `queue`, once a slot is free.
    private func lookUp(_ name: String) async -> Resolution {
        await withCheckedContinuation { continuation in
            queue.async { [slots] in
                slots.wait()
                defer { slots.signal() }
                continuation.resume(returning: Self.systemResolution(of: name))
            }
        }
    }

    /// `getaddrinfo(name)` with AF_UNSPEC (A and AAAA) and a stream socket type, so that each
    /// address comes once rather than once a protocol.
    static func systemResolution(of name: String) -> Resolution {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(name, nil, &hints, &list)
        guard code == 0, let first = list else {
            let reason = code == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(code))
            return .failed("\(name): the name does not resolve (\(reason))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let text = text(of: info), !addresses.contains(text) else { continue }
            addresses.append(text)
        }
        guard !addresses.isEmpty else { return .failed("\(name): the name does not resolve (no address)") }
        return .addresses(addresses)
    }

    /// The address of one entry, as `IPAddress` writes it; nil for another family.
    private static func text(of info: addrinfo) -> String? {
        guard let socketAddress = info.ai_addr else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written: UnsafePointer<CChar>?
        switch info.ai_family {
        case AF_INET:
            written = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var bytes = address.pointee.sin_addr
                return inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count))
            }
        case AF_INET6:
            written = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                var bytes = address.pointee.sin6_addr
                return inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count))
            }
        default:
            return nil
        }
        guard written != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return IPAddress(text)?.description ?? text
    }

    /// `SOCK_STREAM` as `addrinfo.ai_socktype` takes it: glibc declares it as an enumeration.
    private static var streamSocket: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }
}
