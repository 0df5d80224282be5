import Foundation

/// A least-recently-used map: a dictionary into a doubly linked list kept in arrays, so that a
/// read, an insert and an eviction each take constant time.
struct LRUStorage {
    private struct Node {
        var key: String
        var value: IPResponse
        var expiry: Date
        var newer: Int?
        var older: Int?
    }

    private let capacity: Int
    private var nodes: [Node] = []
    private var index: [String: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest: Int?
    private var oldest: Int?

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { index.count }

    /// The value and its expiry; a read makes the entry the most recently used.
    mutating func value(forKey key: String) -> (IPResponse, Date)? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        return (nodes[slot].value, nodes[slot].expiry)
    }

    mutating func insert(_ value: IPResponse, expiry: Date, forKey key: String) {
        if let slot = index[key] {
            nodes[slot].value = value
            nodes[slot].expiry = expiry
            moveToNewest(slot)
            return
        }
        if index.count >= capacity, let oldest { remove(nodes[oldest].key) }
        let node = Node(key: key, value: value, expiry: expiry, newer: nil, older: nil)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        index[key] = slot
        linkAsNewest(slot)
    }

    mutating func remove(_ key: String) {
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        freeSlots.append(slot)
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (nodes[slot].newer, nodes[slot].older)
        if let newer { nodes[newer].older = older } else { newest = older }
        if let older { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = nil
        nodes[slot].older = nil
    }
}
