import Foundation

/// The check that an entry read back is the one the cache wrote: XXH64 (xxHash's 64-bit hash)
/// of the answer's bytes, seeded with its key (scope, address, fields), computed when the
/// answer was checked and stored. An entry whose bytes were damaged, moved to another key, or
/// written by anything but the cache has no matching digest, and is a miss.
///
/// Not a secret: the database is the user's alone (see `CacheFolder`); the digest tells damage
/// and strangers' rows from the cache's own, for the price of a hash rather than a parse.
enum AnswerDigest {
    /// The digest of `json` kept under `address` and `fields` (joined by commas) in `scope`, as
    /// the table's `digest` column holds it.
    static func digest(of json: Data, scope: Data, address: String, fields: String) -> Int64 {
        // Each part of the key seeds the hash of the next, the answer's bytes last.
        var seed = scope.withUnsafeBytes { xxh64($0, seed: 0) }
        seed = xxh64(address, seed: seed)
        seed = xxh64(fields, seed: ~seed)
        return Int64(bitPattern: json.withUnsafeBytes { xxh64($0, seed: seed) })
    }

    /// XXH64 of `text`'s UTF-8 bytes.
    private static func xxh64(_ text: String, seed: UInt64) -> UInt64 {
        var text = text
        return text.withUTF8 { xxh64(UnsafeRawBufferPointer($0), seed: seed) }
    }

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// XXH64 of `bytes` (xxHash's reference algorithm, little-endian reads).
    static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var lanes = (seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1)
            while offset + 32 <= count {
                lanes.0 = accumulate(lanes.0, word(bytes, offset))
                lanes.1 = accumulate(lanes.1, word(bytes, offset + 8))
                lanes.2 = accumulate(lanes.2, word(bytes, offset + 16))
                lanes.3 = accumulate(lanes.3, word(bytes, offset + 24))
                offset += 32
            }
            hash = rotated(lanes.0, 1) &+ rotated(lanes.1, 7) &+ rotated(lanes.2, 12) &+ rotated(lanes.3, 18)
            hash = merged(hash, lanes.0)
            hash = merged(hash, lanes.1)
            hash = merged(hash, lanes.2)
            hash = merged(hash, lanes.3)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash = rotated(hash ^ accumulate(0, word(bytes, offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotated(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash = rotated(hash ^ (UInt64(bytes[offset]) &* prime5), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func accumulate(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotated(accumulator &+ input &* prime2, 31) &* prime1
    }

    private static func merged(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ accumulate(0, lane)) &* prime1 &+ prime4
    }

    private static func rotated(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
