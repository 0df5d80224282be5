import ArgumentParser

/// The options of how a command reaches the API and what it says on standard error: the key,
/// `--sandbox`, retries, the time limit, the cache, `--quiet` and `--verbose`.
///
/// `ipdata` itself declares them, so they may come before the command word (`ipdata --sandbox
/// bulk`) as after it; each command declares them again and gets the same values. A command that
/// takes none of them refuses the ones given (see `refuse(allBut:)`).
struct ClientOptions: ParsableArguments {
    @Option(
        name: .customLong("api-key"),
        help: ArgumentHelp(
            "the API key (default: $IPDATA_API_KEY, then the file ipdata init writes); other users of this "
                + "machine can see it in `ps`: prefer ipdata init or IPDATA_API_KEY",
            valueName: "KEY"))
    var apiKey: String?

    @Flag(help: "answer from built-in sample data: no key, no network (IPDataTesting's sandbox)")
    var sandbox = false

    @Option(
        help: ArgumentHelp(
            "send a request again up to N times after a 429, a 5xx or a connection failure, waiting as "
                + "Retry-After asks or backing off (default 3; 0: never); a bulk request only after a 429 or when "
                + "no connection could be made, unless --resend-bulk",
            valueName: "N"))
    var retries: String?

    @Flag(
        name: .customLong("resend-bulk"),
        help: ArgumentHelp(
            "also send a bulk request again after a 5xx or a lost connection, after which the API may have "
                + "answered it: its addresses may be billed twice"))
    var resendBulk = false

    @Option(help: ArgumentHelp("the most one request may take, 1 to 600 (default 30)", valueName: "SECONDS"))
    var timeout: String?

    @Flag(
        name: .customLong("no-cache"),
        help: "neither read nor fill the cache of answers (see `ipdata cache --help`): every address is sent")
    var noCache = false

    @Flag(
        name: [.customShort("q"), .long],
        help: ArgumentHelp(
            "no summary, progress bar or notices on standard error (for cron); errors, warnings and where "
                + "to start again after a stop are still printed"))
    var quiet = false

    @Flag(help: "print where the API key comes from, and each request (key hidden) with its status and time")
    var verbose = false

    /// The long names of the options given, in the order help lists them.
    var givenNames: [String] {
        [
            ("api-key", apiKey != nil), ("sandbox", sandbox), ("retries", retries != nil),
            ("resend-bulk", resendBulk), ("timeout", timeout != nil), ("no-cache", noCache), ("quiet", quiet),
            ("verbose", verbose),
        ].filter(\.1).map(\.0)
    }

    /// Throws a usage error for the first option given that is not one of `taken`, as for an
    /// option the command does not know.
    func refuse(allBut taken: Set<String> = []) throws {
        if let name = givenNames.first(where: { !taken.contains($0) }) { throw UsageError("unknown option --\(name)") }
    }
}
