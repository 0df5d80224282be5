import Foundation

/// One call of an `IPDataClient`, as an `IPDataObserver` is told of it: a method of the client,
/// or one lookup of a stream.
public struct IPDataCall: Sendable, Hashable {
    /// Which call of the API a client makes: its `name` is the label for logs and metrics.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// `own_address`, `address`, `field`, `bulk` or `asn`.
        public let name: String

        /// `lookup(fields:)`: `GET /`, the caller's own address.
        public static let ownAddress = Endpoint(name: "own_address")
        /// `lookup(_:fields:)`: `GET /{ip}`.
        public static let address = Endpoint(name: "address")
        /// `lookupField(_:field:)`: `GET /{ip}/{field}`.
        public static let field = Endpoint(name: "field")
        /// `bulkLookup(_:fields:)` and a stream's bulk lookups: `POST /bulk`.
        public static let bulk = Endpoint(name: "bulk")
        /// `lookupASN(_:)`: `GET /AS{number}`.
        public static let asn = Endpoint(name: "asn")

        /// The endpoint named `name`; the client's own are the static members.
        public init(name: String) {
            self.name = name
        }

        /// `name`.
        public var description: String { name }
    }

    /// Tells this call from every other of the process: each call gets the next number, from 1.
    public let id: UInt64
    /// Which call of the API it is.
    public let endpoint: Endpoint
    /// The addresses it asks for: the list of a bulk lookup, 1 for a lookup of one address or one
    /// field, 0 for the caller's own address and an ASN.
    public let addressCount: Int

    /// A call, as the client describes its own (for the tests of an observer).
    public init(id: UInt64, endpoint: Endpoint, addressCount: Int) {
        self.id = id
        self.endpoint = endpoint
        self.addressCount = addressCount
    }

    /// The last number given to a call.
    private static let lastID = Locked<UInt64>(0)

    /// A call with the next number.
    static func next(_ endpoint: Endpoint, addressCount: Int) -> IPDataCall {
        let id = lastID.withLock { last -> UInt64 in
            last += 1
            return last
        }
        return IPDataCall(id: id, endpoint: endpoint, addressCount: addressCount)
    }
}
