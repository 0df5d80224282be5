import Foundation

extension InputLedger.Answer {
    /// The answer as the record of an address resolved from `host`: `"host": host` first in its
    /// JSON (every byte of the API's after it), and a `host` value for CSV and table columns.
    func naming(host: String) -> InputLedger.Answer {
        var record = self.record
        record[Columns.host] = .string(host)
        var named = InputLedger.Answer(
            record: record, json: json.map { RawJSON.withFirstMember($0, name: Columns.host, value: host) },
            isCompact: isCompact, failed: failed, status: status)
        named.answeredLocally = answeredLocally
        return named
    }
}
