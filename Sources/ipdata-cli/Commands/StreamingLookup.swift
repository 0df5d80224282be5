import IPData

/// Writes the results of a lookup stream (`client.lookupStream`) as records, in input order, as
/// they arrive: shared by `ipdata IP IP…` and `ipdata bulk`.
///
/// Every record has the `ip` it is about, whatever `--fields` selects. An address that fails on
/// its own (the API rejects it, or it is no address) becomes a record with `ip` and `error`, and
/// the run goes on. A failure that every later lookup would share (a
/// refused key, an exhausted quota) ends the run with one line on standard error.
struct StreamingLookup {
    let selection: FieldSelection?
    let writer: RecordWriter
    let progress: Progress
    let console: Console

    /// Writes every result; returns `.lookupFailed` when any address failed, else `.success`.
    /// Throws what the input throws (a file that cannot be read, say).
    func run(_ stream: IPLookupStream) async throws -> ExitStatus {
        var results = stream.makeAsyncIterator()
        do {
            while let item = try await results.next() {
                switch item.result {
                case .success(let response):
                    var record = try Record(encoding: response, selection: selection)
                    // Every record names its address, even when --fields leaves `ip` out.
                    if record["ip"] == nil { record["ip"] = .string(item.ip) }
                    try writer.write(record)
                    progress.recordWritten(failed: false)
                case .failure(let error) where error.stopsTheRun:
                    // Leaving the loop drops the stream, which cancels its requests in flight.
                    progress.reportSwitchIfNeeded()
                    console.error(error.commandLineMessage)
                    try writer.finish()
                    return .lookupFailed
                case .failure(let error):
                    try writer.write([
                        "ip": .string(item.ip), Columns.error: .string(console.oneLine(error.commandLineMessage)),
                    ])
                    progress.recordWritten(failed: true)
                }
            }
        } catch {
            try? writer.finish()
            throw error
        }
        try writer.finish()
        return progress.failures > 0 ? .lookupFailed : .success
    }
}
