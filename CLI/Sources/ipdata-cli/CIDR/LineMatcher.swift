import IPData

/// The matching of `ipdata cidr match` over whole lines of text.
struct LineMatcher {
    let networks: NetworkSet
    let invert: Bool
    let output: GrepOutput
    private let scanner = AddressScanner()
    /// Whether any line was printed.
    private(set) var printedAny = false

    init(networks: NetworkSet, invert: Bool, output: GrepOutput) {
        self.networks = networks
        self.invert = invert
        self.output = output
    }

    /// Matches whole lines (each ending with `\n`, but perhaps the last) and prints those that
    /// are kept; false when standard output is closed.
    mutating func match(_ lines: ArraySlice<UInt8>) -> Bool {
        lines.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
                let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
                if keeps(line) {
                    printedAny = true
                    guard output.write(line: line) else { return false }
                }
                start = end + 1
            }
            return true
        }
    }

    /// Whether a line is printed: it holds an address inside, or with `-v` one and none inside.
    private func keeps(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var holdsAddress = false
        var holdsInside = false
        scanner.scan(line) { match in
            holdsAddress = true
            holdsInside = networks.contains(match.address)
            return holdsInside ? nil : match.range.upperBound
        }
        return invert ? holdsAddress && !holdsInside : holdsInside
    }
}
