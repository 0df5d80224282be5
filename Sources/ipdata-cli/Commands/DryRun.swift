import Foundation
import IPData

/// `--dry-run`: what a run would cost, counted from its input and the disk cache, with nothing
/// sent. An address is sent once per run (the run answers its repeats from the first answer, or
/// from the cache), so the requests are those of its distinct addresses the cache lacks.
struct DryRun: Equatable {
    /// The addresses of the input: the records the run would write.
    var addresses = 0
    /// How many of them are distinct (in canonical form: `2001:DB8::1` is `2001:db8::1`).
    var distinct = 0
    /// The distinct entries that are no IP address: failed records, never sent.
    var notAddresses = 0
    /// The distinct addresses the cache answers.
    var cached = 0

    /// The distinct addresses to send.
    var toSend: Int { distinct - notAddresses - cached }

    /// The requests the run would send: one per address for single lookups, else bulk requests
    /// of up to 100 addresses.
    func requests(singleLookups: Bool) -> Int {
        singleLookups ? toSend : (toSend + APIMessage.bulkLimit - 1) / APIMessage.bulkLimit
    }

    /// Counts `addresses`, asking `cache` (nil with `--no-cache`) about each distinct one.
    static func count<Addresses: AsyncSequence>(_ addresses: Addresses, cache: CachedAnswers?) async throws -> DryRun
    where Addresses.Element == String {
        var estimate = DryRun()
        var seen: Set<String> = []
        for try await address in addresses {
            estimate.addresses += 1
            let canonical = IPAddress.canonical(address)
            guard seen.insert(canonical ?? "\u{0}" + address).inserted else { continue }
            estimate.distinct += 1
            if canonical == nil {
                estimate.notAddresses += 1
            } else if let cache, cache.key(for: address).flatMap(cache.cache.entry(for:)) != nil {
                estimate.cached += 1
            }
        }
        return estimate
    }

    /// The line `--dry-run` prints: `dry run: 1000 addresses, 900 distinct, 850 in the cache,
    /// 50 to look up in 1 request; nothing was sent`.
    func text(singleLookups: Bool) -> String {
        let requests = requests(singleLookups: singleLookups)
        let kind = singleLookups ? "single lookup" : "bulk request"
        var parts = [
            "\(addresses) address\(addresses == 1 ? "" : "es")", "\(distinct) distinct", "\(cached) in the cache",
        ]
        if notAddresses > 0 { parts.append("\(notAddresses) not IP address\(notAddresses == 1 ? "" : "es")") }
        return "dry run: " + parts.joined(separator: ", ")
            + "; \(toSend) to look up in \(requests) \(kind)\(requests == 1 ? "" : "s"); nothing was sent"
    }
}
