/// Where the addresses of a stream come from: a sequence or an async sequence, read once.
protocol AddressSource: AnyObject {
    func next() async throws -> String?
}

final class SequenceSource<Addresses: Sequence>: AddressSource where Addresses.Element == String {
    private var iterator: Addresses.Iterator

    init(_ addresses: Addresses) {
        iterator = addresses.makeIterator()
    }

    func next() async throws -> String? {
        iterator.next()
    }
}

final class AsyncSequenceSource<Addresses: AsyncSequence>: AddressSource where Addresses.Element == String {
    private var iterator: Addresses.AsyncIterator

    init(_ addresses: Addresses) {
        iterator = addresses.makeAsyncIterator()
    }

    func next() async throws -> String? {
        try await iterator.next()
    }
}
