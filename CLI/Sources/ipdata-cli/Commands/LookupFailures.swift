import IPData

/// The failed lookups of a run that writes no record per failure on its own (`enrich`,
/// `summarize`): how many, the exit status they add up to, and the first network failure, which
/// is said once at the end rather than hidden in the output (a dead server is not "no answer").
struct LookupFailures {
    private(set) var count = 0
    private(set) var status = ExitStatus.success
    private var firstNetworkFailure: String?

    mutating func record(_ error: IPDataError) {
        count += 1
        status = status.combined(with: error.exitStatus)
        if error.exitStatus == .networkFailed, firstNetworkFailure == nil {
            firstNetworkFailure = error.commandLineMessage
        }
    }

    /// One line on standard error when lookups failed: the network failure if there was one.
    func report(to console: Console, what: String) {
        guard count > 0 else { return }
        let lookups = "\(count) lookup\(count == 1 ? "" : "s") failed"
        if let firstNetworkFailure {
            console.error("\(lookups): \(firstNetworkFailure)")
        } else {
            console.note("\(lookups); \(what)")
        }
    }
}
