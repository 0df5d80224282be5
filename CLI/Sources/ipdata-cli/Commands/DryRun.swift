import DiskCache
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
    /// The distinct addresses answered locally, never sent: private and reserved ones.
    var answeredLocally = 0
    /// The distinct addresses the cache answers.
    var cached = 0

    /// The distinct addresses to send.
    var toSend: Int { distinct - notAddresses - answeredLocally - cached }

    /// The requests the run would send: one per address for single lookups, else bulk requests
    /// of up to 100 addresses.
    func requests(singleLookups: Bool) -> Int {
        singleLookups ? toSend : (toSend + APIMessage.bulkLimit - 1) / APIMessage.bulkLimit
    }

    /// Counts `addresses`, asking `cache` (nil with `--no-cache`) about each distinct one, for a
    /// lookup of `fields` (nil for all). With
    /// `answersNonPublicLocally` (the run's stream does not send them, as in bulk, enrich,
    /// summarize and lookups of several addresses), a private or reserved address is counted as
    /// answered locally, by the scope rule the stream uses.
    static func count<Addresses: AsyncSequence>(
        _ addresses: Addresses, cache: SQLiteLookupStore?, fields: [String]?, answersNonPublicLocally: Bool = true
    ) async throws -> DryRun where Addresses.Element == String {
        var estimate = DryRun()
        var seen: Set<String> = []
        for try await address in addresses {
            estimate.addresses += 1
            let parsed = IPAddress(address)
            let canonical = parsed?.description
            guard seen.insert(canonical ?? "\u{0}" + address).inserted else { continue }
            estimate.distinct += 1
            if canonical == nil {
                estimate.notAddresses += 1
            } else if answersNonPublicLocally, parsed?.scope != .public {
                estimate.answeredLocally += 1
            } else if let cache, let key = LookupCacheKey(address: address, fields: fields),
                cache.entry(for: key) != nil
            {
                estimate.cached += 1
            }
        }
        return estimate
    }

    /// The line `--dry-run` prints, each number with its unit: `dry run: 1000 addresses read, 900
    /// distinct; of the 900 distinct addresses: 840 in the cache, 8 answered locally (private or
    /// reserved), 2 invalid, 50 to send in 1 bulk request; nothing was sent`. The parts for
    /// addresses answered locally and invalid ones appear only when there are some.
    func text(singleLookups: Bool) -> String {
        func plural(_ count: Int, _ singular: String, _ plural: String) -> String {
            "\(count) \(count == 1 ? singular : plural)"
        }
        let requests = requests(singleLookups: singleLookups)
        var parts = ["\(cached) in the cache"]
        if answeredLocally > 0 { parts.append("\(answeredLocally) answered locally (private or reserved)") }
        if notAddresses > 0 { parts.append("\(notAddresses) invalid") }
        let kind =
            singleLookups
            ? plural(requests, "single lookup", "single lookups") : plural(requests, "bulk request", "bulk requests")
        parts.append("\(toSend) to send in \(kind)")
        return "dry run: \(plural(addresses, "address", "addresses")) read, \(distinct) distinct; "
            + "of the \(plural(distinct, "distinct address", "distinct addresses")): " + parts.joined(separator: ", ")
            + "; nothing was sent"
    }
}
