import Foundation

/// The targets of `ipdata IP|NAME…` with their host names resolved (see `HostName`), in order:
/// each name stands for its addresses, each of which names it; a name that does not resolve
/// stays as it is, with the resolver's message, for an error record.
struct NamedArguments: Sendable {
    /// One address to look up, or a name that did not resolve.
    struct Entry: Sendable, Equatable {
        /// The address (or, for an argument that is no name, the argument as it is); a name that
        /// does not resolve.
        let text: String
        /// The name it was resolved from.
        let host: String?
        /// Why there is no address (the name does not resolve).
        let problem: String?
        /// The argument's position, from 1.
        let argument: Int
    }

    let entries: [Entry]

    /// `arguments` with their names resolved, several at once (see `HostResolver`); nil when
    /// none of them is a name.
    static func resolving(_ arguments: [String], with resolver: HostResolver) async -> NamedArguments? {
        guard arguments.contains(where: HostName.isHostName) else { return nil }
        for argument in arguments where HostName.isHostName(argument) { resolver.prefetch(argument) }
        var entries: [Entry] = []
        for (index, argument) in arguments.enumerated() {
            guard HostName.isHostName(argument) else {
                entries.append(Entry(text: argument, host: nil, problem: nil, argument: index + 1))
                continue
            }
            switch await resolver.resolve(argument) {
            case .addresses(let addresses):
                entries += addresses.map { Entry(text: $0, host: argument, problem: nil, argument: index + 1) }
            case .failed(let message):
                entries.append(Entry(text: argument, host: argument, problem: message, argument: index + 1))
            }
        }
        return NamedArguments(entries: entries)
    }

    /// The texts to look up, in order.
    var texts: [String] { entries.map(\.text) }

    /// The texts to look up, each entered in `ledger` with its name as it is handed out, until
    /// the ledger's run stops.
    func addresses(recordingIn ledger: InputLedger) -> Addresses {
        Addresses(entries: entries, ledger: ledger)
    }

    /// The texts to look up, for a lookup stream, entering each in a ledger (see `StreamingLookup`).
    struct Addresses: AsyncSequence, Sendable {
        typealias Element = String
        let entries: [Entry]
        let ledger: InputLedger

        func makeAsyncIterator() -> Iterator { Iterator(entries: entries, ledger: ledger) }

        struct Iterator: AsyncIteratorProtocol {
            let entries: [Entry]
            let ledger: InputLedger
            var position = 0

            mutating func next() async -> String? {
                guard !ledger.isStopped else {
                    if ledger.unread == .unknown { ledger.unread = .counted(entries.count - position) }
                    return nil
                }
                guard position < entries.count else {
                    if ledger.unread == .unknown { ledger.unread = .counted(0) }
                    return nil
                }
                let entry = entries[position]
                position += 1
                ledger.append(
                    InputLedger.Origin(
                        input: "the command line", inputIndex: 0, line: entry.argument, problem: entry.problem,
                        host: entry.host))
                return entry.text
            }
        }
    }
}
