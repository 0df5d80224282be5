import Foundation
import IPData

extension AddressInterval {
    /// The address or network written in `text` (`1.2.3.4`, `10.0.0.0/8`, `2001:db8::/32`), or
    /// nil when it is neither. A network with host bits set (`10.0.0.1/8`) counts as its network,
    /// as `ipdata grep --cidrs` prints it. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is its
    /// IPv4 address, as everywhere in the CLI, and a mapped network of `/96` or longer the IPv4
    /// network it maps (`::ffff:10.0.0.0/104` is `10.0.0.0/8`).
    init?(addressOrNetwork text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let written = IPAddress(String(parts[0])) else { return nil }
        let address = written.unmappingIPv4
        guard parts.count == 2 else {
            self.init(network: address, prefixLength: address.bitWidth)
            return
        }
        // The prefix length by `IPNetwork`'s rule (digits, no leading zero, within the bits),
        // checked on the block's first address so that host bits are no reason to refuse it.
        guard let network = IPNetwork("\(written.network(prefixLength: 0))/\(parts[1])") else { return nil }
        let lost = written.bitWidth - address.bitWidth
        guard network.prefixLength >= lost else {
            // A mapped network wider than the mapped addresses: IPv6, as written.
            self.init(network: written, prefixLength: network.prefixLength)
            return
        }
        self.init(network: address, prefixLength: network.prefixLength - lost)
    }

    /// What a line of `ipdata cidr range` holds.
    enum RangeText {
        /// A range `A-B`, or a network, whose addresses these are.
        case range(AddressInterval)
        case network(AddressInterval)
        /// What is wrong with it, to say after the text.
        case problem(String)
    }

    /// The range `A-B` (both ends included, spaces around the dash allowed) or the address or
    /// network in `text`, or what is wrong with it.
    static func rangeText(_ text: some StringProtocol) -> RangeText {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2 else {
            if let network = AddressInterval(addressOrNetwork: text) { return .network(network) }
            return .problem("is neither a range (A-B) nor a network")
        }
        guard let low = IPAddress(ends[0].trimmingCharacters(in: .whitespaces)),
            let high = IPAddress(ends[1].trimmingCharacters(in: .whitespaces))
        else { return .problem("is no range: each end of A-B must be an address") }
        let (lowFamily, first) = number(of: low.unmappingIPv4)
        let (highFamily, last) = number(of: high.unmappingIPv4)
        guard lowFamily == highFamily else { return .problem("is no range: its ends are IPv4 and IPv6") }
        guard first <= last else { return .problem("is no range: its first address is after its last") }
        return .range(AddressInterval(family: lowFamily, first: first, last: last))
    }

    /// `text` for a message: in backquotes, and cut after 80 characters.
    static func quoted(_ text: some StringProtocol) -> String {
        text.count > 80 ? "`\(text.prefix(80))…`" : "`\(text)`"
    }
}
