/// The addresses of the host names `ipdata grep --names` finds, each name resolved once a run by
/// the system resolver (`HostResolver.systemResolution(of:)`), in the order grep reads the text.
///
/// Resolution waits: grep reads its text in order, one line after another, and a line's output
/// needs its names' addresses. At most `capacity` names are kept; past that the table starts
/// again, so that a log of ever new names cannot fill memory.
struct ResolvedNames {
    static let capacity = 10_000
    private var addresses: [String: [String]] = [:]

    /// The addresses of `name`, in the resolver's order; none when it does not resolve.
    mutating func addresses(of name: String) -> [String] {
        var key = name.lowercased()
        if key.hasSuffix(".") { key.removeLast() }
        if let known = addresses[key] { return known }
        if addresses.count >= Self.capacity { addresses.removeAll(keepingCapacity: true) }
        let found: [String]
        switch HostResolver.systemResolution(of: name) {
        case .addresses(let list): found = list
        case .failed: found = []
        }
        addresses[key] = found
        return found
    }
}
