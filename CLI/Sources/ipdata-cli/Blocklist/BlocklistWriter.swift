import IPData

/// A `RecordWriter` that prints no record: it keeps the address (`ip`) of each record it is
/// given, and at the end prints them as a blocklist (`BlocklistFormat`), aggregated into the
/// fewest CIDRs. Records without an address, or with an `error`, are left out.
///
/// Each address is kept as a number (tens of bytes): a run of millions of addresses holds them
/// all until the end, when they are sorted and merged once.
final class BlocklistWriter: RecordWriter {
    private let format: BlocklistFormat
    private let setName: String
    private let sink: OutputSink
    private var intervals: [AddressInterval] = []

    init(format: BlocklistFormat, setName: String, sink: OutputSink) {
        self.format = format
        self.setName = setName
        self.sink = sink
    }

    func write(_ record: Record) throws {
        guard record[Columns.error] == nil, case .string(let text)? = record["ip"], let address = IPAddress(text)
        else { return }
        keep(address)
    }

    /// Keeps `address` for the blocklist (`ipdata filter` gives the addresses of its lines).
    func keep(_ address: IPAddress) {
        let unmapped = address.unmappingIPv4
        intervals.append(AddressInterval(network: unmapped, prefixLength: unmapped.bitWidth))
    }

    /// What the blocklist printed holds, once it is printed: `120 addresses in 14 CIDRs`.
    private(set) var tally: String?

    func finish() throws {
        let merged = AddressInterval.merged(intervals)
        let text = format.text(of: merged, setName: setName)
        try sink.write(text)
        let cidrs = merged.reduce(0) { $0 + $1.networks.count }
        // Each interval is of whole addresses kept: its length counts them, repeats once.
        let addresses = merged.reduce(0) { $0 + Int(truncatingIfNeeded: $1.last.minus($1.first).low) + 1 }
        tally = "\(addresses) address\(addresses == 1 ? "" : "es") in \(cidrs) CIDR\(cidrs == 1 ? "" : "s")"
        intervals = []
        try sink.flush()
    }
}
